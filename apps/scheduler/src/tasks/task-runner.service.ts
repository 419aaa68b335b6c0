import { Inject, Injectable } from '@nestjs/common';
import { inSpan, linkTo } from '@app/observability';
import { Bus } from '@app/bus';
import {
  type AgentRunReply,
  type AgentRunRequest,
  AppError,
  type FinishReason,
  Subjects,
} from '@app/contracts';
import { FunctionClient } from '@app/functions';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../config/scheduler.config';
import type { FireOutcome } from './fire-outcome';
import type { DelayTaskRow } from './task.views';

/** What a fire needs to know about its task, delay or cron. */
export type RunnableTask = Pick<
  DelayTaskRow,
  | 'name'
  | 'owner'
  | 'target'
  | 'function_name'
  | 'params'
  | 'agent'
  | 'session_id'
  | 'message'
  | 'traceparent'
>;

/** An agent turn that ended this way did what it was asked (a plan may wait for a human). */
const FINISHED = new Set<FinishReason>(['final', 'awaiting_approval']);

/** Runs a task's target over the bus, within the fire timeout: `fn.exec.<function>` or an agent turn. */
@Injectable()
export class TaskRunner {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(FunctionClient) private readonly functions: FunctionClient,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
  ) {}

  /** One span per fire, in a trace of its own, linked to the request that created the task. */
  run(task: RunnableTask, fireId: string): Promise<FireOutcome> {
    const attributes = { 'ac.task': task.name, 'ac.task.target': task.function_name || 'agent' };
    return inSpan(`fire ${task.name}`, { attributes, links: linkTo(task.traceparent) }, async () => {
      try {
        return task.target === 'agent' ? await this.runAgent(task) : await this.runFunction(task, fireId);
      } catch (err) {
        return { status: 'failed', error: describe(err, task) };
      }
    });
  }

  private async runFunction(task: RunnableTask, fireId: string): Promise<FireOutcome> {
    const params = JSON.parse(task.params) as Record<string, unknown>;
    const reply = await this.functions.call(task.function_name, params, {
      timeoutMs: this.settings.fireTimeoutMs,
      caller: { kind: 'scheduler', principal: task.owner || undefined },
      callId: fireId,
    });
    if (reply.status === 'success') return { status: 'completed', result: reply.result };
    return {
      status: 'failed',
      error: reply.error.message,
      result: reply.error.details === undefined ? undefined : { error: reply.error },
    };
  }

  private async runAgent(task: RunnableTask): Promise<FireOutcome> {
    const request: AgentRunRequest = {
      message: task.message ?? '',
      session_id: task.session_id ?? undefined,
      agent: task.agent ?? undefined,
      principal: task.owner || undefined,
    };
    const reply = await this.bus.request<AgentRunReply>(Subjects.agentRun, request, {
      timeoutMs: this.settings.fireTimeoutMs,
    });
    const result = {
      session_id: reply.session_id,
      run_id: reply.run_id,
      reply: reply.reply,
      finish_reason: reply.finish_reason,
    };
    if (FINISHED.has(reply.finish_reason)) return { status: 'completed', result };
    return { status: 'failed', result, error: `the agent run ended with '${reply.finish_reason}'` };
  }
}

function describe(err: unknown, task: RunnableTask): string {
  const target = task.target === 'agent' ? 'the agent' : `function '${task.function_name}'`;
  if (err instanceof AppError && err.code === 'unavailable')
    return `${target} is not available: ${err.message}`;
  if (err instanceof AppError) return err.message;
  return `${target} could not be run: ${(err as Error)?.message ?? String(err)}`;
}
