import { Inject, Injectable } from '@nestjs/common';
import type { FinishReason, Plan, PlanStep } from '@app/contracts';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { ChatMessage } from '@app/llm';
import { FunctionCatalogService } from '../tools/function-catalog.service';
import { ended, type RunOutcome } from '../runs/run-endings';
import type { RunState } from '../runs/run-state';
import { RunRepository } from '../runs/run.repository';
import { describePlan, planningPrompt, planText, replanRequest } from './plan-prompt';
import { PlanStepsService } from './plan-steps.service';
import { PlannerService } from './planner.service';
import { PlanSummaryService } from './plan-summary.service';

/** Revisions one run may make before a failing step aborts the plan anyway. */
const MAX_REPLANS = 3;

type Stop = { reason: Exclude<FinishReason, 'final'>; error?: string };

interface Progress {
  planTurns: ChatMessage[];
  observations: string[];
  replansLeft: number;
}

/**
 * Plan-then-execute: the model writes a JSON plan (stored on the run); with approval required the
 * run pauses in `awaiting_approval`; the steps then run in order, a failure handled by the
 * profile's policy (skip, abort, or one model call that revises the remaining steps); one
 * summary call writes the reply.
 */
@Injectable()
export class PlanRunnerService {
  constructor(
    @Inject(PlannerService) private readonly planner: PlannerService,
    @Inject(PlanStepsService) private readonly steps: PlanStepsService,
    @Inject(PlanSummaryService) private readonly summary: PlanSummaryService,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(RunRepository) private readonly runs: RunRepository,
  ) {}

  async start(run: RunState, conversation: ChatMessage[]): Promise<RunOutcome> {
    const planned = await this.planner.write(run, [await this.planningTurn(run), ...conversation]);
    if (!planned.ok) return planned.outcome;
    run.plan = {
      revision: 0,
      steps: planned.steps.map((step, index) => ({ ...step, index, status: 'pending' })),
    };
    this.events.emit(run, 'plan', run.plan);
    if (run.profile.plan_approval)
      return { finishReason: 'awaiting_approval', reply: describePlan(run.plan) };
    await this.runs.savePlan(run.runId, run.plan);
    return this.carryOut(run, conversation);
  }

  /** Runs the pending steps of `run.plan` (a new plan, or an approved one), then summarises. */
  async carryOut(run: RunState, conversation: ChatMessage[]): Promise<RunOutcome> {
    const plan = run.plan as Plan;
    const progress: Progress = {
      // The plan and its revisions as the model wrote them: the summary sees the whole story.
      planTurns: [{ role: 'assistant', content: planText(plan.steps) }],
      observations: [],
      replansLeft: MAX_REPLANS,
    };
    let stop: Stop | undefined;
    for (let i = 0; i < plan.steps.length && !stop; i++) {
      if (plan.steps[i].status !== 'pending') continue;
      stop = await this.runStep(run, conversation, plan, plan.steps[i], progress);
      if (stop) this.skipFrom(run, plan, i + 1);
    }
    await this.runs.savePlan(run.runId, plan);
    if (run.abortReason) return ended(run, run.abortReason);
    if (stop && stop.reason !== 'error' && stop.reason !== 'max_tool_calls')
      return ended(run, stop.reason, stop.error);
    const summaryConversation = [...conversation, ...progress.planTurns];
    return this.summary.write(run, summaryConversation, progress.observations, stop);
  }

  /** One step; what it means for the rest of the plan. */
  private async runStep(
    run: RunState,
    conversation: ChatMessage[],
    plan: Plan,
    step: PlanStep,
    progress: Progress,
  ): Promise<Stop | undefined> {
    if (run.abortReason) return { reason: run.abortReason };
    const done = await this.steps.run(run, plan, step);
    progress.observations.push(done.observation);
    if (done.limitReached) {
      return {
        reason: 'max_tool_calls',
        error: `step ${step.index + 1} (${step.tool}) reached the limit of function calls`,
      };
    }
    return done.failed ? this.afterFailure(run, conversation, plan, step, progress) : undefined;
  }

  /** The profile's step-failure policy: go on (skip, or a readable revision), or stop. */
  private async afterFailure(
    run: RunState,
    conversation: ChatMessage[],
    plan: Plan,
    failed: PlanStep,
    progress: Progress,
  ): Promise<Stop | undefined> {
    const policy = run.profile.step_failure;
    if (policy === 'skip') return undefined;
    const failure: Stop = {
      reason: 'error',
      error: `step ${failed.index + 1} (${failed.tool}) failed: ${failed.error ?? 'unknown error'}`,
    };
    if (policy !== 'replan' || progress.replansLeft-- <= 0) return failure;
    const request: ChatMessage = { role: 'user', content: replanRequest(plan, failed) };
    const soFar = [...conversation, ...progress.planTurns];
    const revised = await this.planner.revise(run, [await this.planningTurn(run), ...soFar, request]);
    if (!revised.ok) {
      const reason = revised.outcome.finishReason;
      return reason === 'parse_error' || reason === 'error' ? failure : { reason: reason as Stop['reason'] };
    }
    const kept = plan.steps.filter((step) => step.status !== 'pending');
    const added = revised.steps.map((step, i) => ({
      ...step,
      index: kept.length + i,
      status: 'pending' as const,
    }));
    plan.steps = [...kept, ...added];
    plan.revision += 1;
    progress.planTurns.push(request, { role: 'assistant', content: planText(added) });
    this.events.emit(run, 'plan', plan);
    await this.runs.savePlan(run.runId, plan);
    return undefined;
  }

  private skipFrom(run: RunState, plan: Plan, from: number): void {
    for (const step of plan.steps.slice(from)) {
      if (step.status !== 'pending') continue;
      step.status = 'skipped';
      this.events.emit(run, 'step', step);
    }
  }

  private async planningTurn(run: RunState): Promise<ChatMessage> {
    const functions = await this.catalog.allowedFor(run.profile.allowed_tools);
    return { role: 'system', content: planningPrompt(run.profile, functions) };
  }
}
