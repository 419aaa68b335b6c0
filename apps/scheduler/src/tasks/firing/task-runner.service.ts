import { Inject, Injectable } from '@nestjs/common';
import { inSpan, linkTo, Logger } from '@app/observability';
import { Bus, NoRespondersError } from '@app/bus';
import {
  AGENT_FUNCTION_PROVIDER,
  type AgentRunRequest,
  AppError,
  type FinishReason,
  Routes,
  serverGone,
  toAppError,
  UnavailableError,
  type Usage,
} from '@app/contracts';
import { CallNotDeliveredError, CallNotTakenError, FunctionCatalog, FunctionClient } from '@app/functions';
import { KeyBudgetRepository, UsageLimits } from '@app/limits';
import { retry } from '@app/retry';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import type { FireOutcome } from '../domain/fire-outcome';
import { type FireCaller, fireCaller } from './fire-caller';
import type { DelayTask } from '../domain/task';

/** What a fire needs to know about its task, delay or cron. */
export type RunnableTask = Pick<
  DelayTask,
  | 'name'
  | 'owner'
  | 'key_id'
  | 'target'
  | 'function_name'
  | 'params'
  | 'agent'
  | 'session_id'
  | 'message'
  | 'traceparent'
> & { catchup_window_ms?: number };

type ActingFor = Exclude<FireCaller, { refused: string }>;

/** A target that never received the fire is asked again: 0.5 s doubling to 4 s. */
const RETRIES = { firstMs: 500, maxMs: 4_000 };

/** An agent turn that ended this way did what it was asked (a plan may wait for a human). */
const FINISHED = new Set<FinishReason>(['final', 'awaiting_approval']);

/**
 * Runs a task's target over the bus, within the fire timeout: `fn.exec.<function>` or an agent turn.
 * An agent's run (a turn, or an agent called as the task's function) is done for the key that
 * created the task, within that key's limits, as the gateway's runs are: one of its run slots while
 * it runs, refused once its daily token quota or USD budget is spent, its usage charged to its day.
 */
@Injectable()
export class TaskRunner {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(FunctionClient) private readonly functions: FunctionClient,
    @Inject(FunctionCatalog) private readonly catalog: FunctionCatalog,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
    @Inject(KeyBudgetRepository) private readonly keys: KeyBudgetRepository,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  /**
   * One span per fire, in a trace of its own, linked to the request that created the task. A
   * target that never received the call (no provider or executor subscribed, NATS unreachable)
   * is asked again with backoff while the due time is inside the task's catch-up window and the
   * fire inside its own timeout (past it, a peer's sweep would take the fire for interrupted).
   */
  run(task: RunnableTask, fireId: string, due = new Date()): Promise<FireOutcome> {
    const attributes = { 'ac.task': task.name, 'ac.task.target': task.function_name || 'agent' };
    const fireEnds = Date.now() + this.settings.fireTimeoutMs;
    const catchupEnds = due.getTime() + (task.catchup_window_ms ?? this.settings.catchupWindowMs);
    const giveUpAt = Math.min(fireEnds, catchupEnds);
    return inSpan(`fire ${task.name}`, { attributes, links: linkTo(task.traceparent) }, async () => {
      let caller: FireCaller;
      try {
        // A read: asked again through a database that restarts under it (nothing has run yet).
        caller = await retry(() => this.callerOf(task), {
          policy: RETRIES,
          retryable: serverGone,
          deadline: giveUpAt,
        });
      } catch (err) {
        return { status: 'failed', error: this.describe(err, task) };
      }
      if ('refused' in caller) return { status: 'refused', error: caller.refused };
      const attempt = () => {
        const timeoutMs = Math.max(1, fireEnds - Date.now());
        return task.target === 'agent'
          ? this.runAgent(task, caller, timeoutMs)
          : this.runFunction(task, caller, fireId, timeoutMs);
      };
      try {
        return await retry(attempt, { policy: RETRIES, retryable: neverReceived, deadline: giveUpAt });
      } catch (err) {
        return { status: 'failed', error: this.describe(err, task) };
      }
    });
  }

  /** Why the fire failed, for its record: a platform error's own words; anything else unnamed (logged whole). */
  private describe(err: unknown, task: RunnableTask): string {
    const target = task.target === 'agent' ? 'the agent' : `function '${task.function_name}'`;
    if (!(err instanceof AppError)) this.logger.warn('a fire failed unexpectedly', { task: task.name, err });
    const failure = toAppError(err);
    if (failure.code === 'unavailable') return `${target} is not available: ${failure.message}`;
    return err instanceof AppError ? err.message : `${target} could not be run: ${failure.message}`;
  }

  /** The key the task acts for, as it stands now (looked up at each fire, never cached). */
  private async callerOf(task: RunnableTask): Promise<FireCaller> {
    const standing =
      task.key_id && task.key_id !== 'anonymous' ? await this.keys.standing(task.key_id) : null;
    return fireCaller(task.key_id, standing, this.settings.authEnabled);
  }

  private async runFunction(
    task: RunnableTask,
    caller: ActingFor,
    fireId: string,
    timeoutMs: number,
  ): Promise<FireOutcome> {
    const params = JSON.parse(task.params) as Record<string, unknown>;
    const call = () =>
      this.functions.call(task.function_name, params, {
        timeoutMs,
        caller: {
          kind: 'scheduler',
          principal: task.owner || undefined,
          ...(task.key_id ? { key_id: task.key_id } : {}),
          ...(caller.scopes ? { scopes: caller.scopes } : {}),
        },
        callId: fireId,
        // its fire's own: a call sent again (not taken, below) runs once whichever provider takes it
        idempotencyKey: fireKey(fireId),
      });
    const reply = (await this.runsAgentForKey(task))
      ? await this.forKey(task, caller, call, (r) => (r.status === 'success' ? r.result.usage : undefined))
      : await call();
    if (reply.status === 'success') return { status: 'completed', result: reply.result };
    return {
      status: 'failed',
      error: reply.error.message,
      result: reply.error.details === undefined ? undefined : { error: reply.error },
    };
  }

  private async runAgent(task: RunnableTask, caller: ActingFor, timeoutMs: number): Promise<FireOutcome> {
    if (!this.bus.connected) throw new AgentNotReachedError();
    const request: AgentRunRequest = {
      message: task.message ?? '',
      session_id: task.session_id ?? undefined,
      agent: task.agent ?? undefined,
      principal: task.owner || undefined,
      ...(task.key_id ? { key_id: task.key_id } : {}),
      ...(caller.scopes ? { scopes: caller.scopes } : {}),
    };
    const reply = await this.forKey(
      task,
      caller,
      () => this.bus.request(Routes.agentRun, request, { timeoutMs }),
      (r) => r.usage,
    );
    const result = {
      session_id: reply.session_id,
      run_id: reply.run_id,
      reply: reply.reply,
      finish_reason: reply.finish_reason,
    };
    if (FINISHED.has(reply.finish_reason)) return { status: 'completed', result };
    return { status: 'failed', result, error: `the agent run ended with '${reply.finish_reason}'` };
  }

  /**
   * Whether the task's function is an agent's, run for the key that created the task (looked up
   * only then). An unreadable catalogue (NATS down) fails the call too, which is then sent again.
   */
  private async runsAgentForKey(task: RunnableTask): Promise<boolean> {
    if (!task.key_id) return false;
    const definition = await this.catalog.get(task.function_name).catch(() => undefined);
    return definition?.provider === AGENT_FUNCTION_PROVIDER;
  }

  /**
   * An agent's run within the limits of the key that created the task (a refusal, e.g. its daily
   * quota used up, fails the fire with the limit's message); a task from before keys were recorded
   * runs outside any.
   */
  private async forKey<R>(
    task: RunnableTask,
    actingFor: ActingFor,
    run: () => Promise<R>,
    usageOf: (reply: R) => Usage | undefined,
  ): Promise<R> {
    if (!task.key_id) return run();
    const caller = { keyId: task.key_id, dailyCostBudgetUsd: actingFor.dailyCostBudgetUsd };
    const within = await this.limits.withinLimits(caller, async () => {
      const reply = await run();
      return { reply, usage: usageOf(reply) };
    });
    return within.reply;
  }
}

class AgentNotReachedError extends UnavailableError {
  constructor() {
    super('NATS is unreachable', { part: 'nats' });
  }
}

/**
 * Nothing ran: the call reached nobody, so sending it again cannot run the task twice — or no
 * provider took it (its NATS server died with the delivery), and its key lets one attempt run.
 */
function neverReceived(err: unknown): boolean {
  return (
    err instanceof CallNotDeliveredError ||
    err instanceof CallNotTakenError ||
    err instanceof NoRespondersError ||
    err instanceof AgentNotReachedError
  );
}

/** A fire's idempotency key for its function call: one per due time of one task. */
export function fireKey(fireId: string): string {
  return `fire-${fireId}`;
}
