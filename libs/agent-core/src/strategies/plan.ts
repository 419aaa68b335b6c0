import type { FinishReason, Plan, PlanStep } from '@app/contracts';
import type { ChatMessage } from '../model/model-client';
import type { RunContext } from '../run-context';
import { ended, type RunOutcome } from '../run-outcome';
import { describePlan, planText, planningPrompt, replanRequest } from './plan-prompt';
import { allowedFunctions } from './allowed-functions';
import { systemTurns } from '../prompts/system-turns';
import { JSON_PLAN_PARSER, type PlanParser } from './plan-parser';
import { writePlan, writeSummary } from './plan-model-steps';
import { runPlanStep } from './plan-step';
import { awaitingApprovalReply, type HeldCall } from '../tools/approval-gate';

/** Revisions one run may make before a failing step aborts the plan anyway. */
const MAX_REPLANS = 3;

type Stop = { reason: Exclude<FinishReason, 'final'>; error?: string; held?: HeldCall[] };

interface Progress {
  planTurns: ChatMessage[];
  observations: string[];
  replansLeft: number;
}

/**
 * Plan-then-execute: the model writes a JSON plan; with approval required the run is held in
 * `awaiting_approval`; the steps then run in order, a failure handled by the agent's policy
 * (skip, abort, or one model call that revises the remaining steps); one summary call writes
 * the reply.
 */
export async function startPlan(
  ctx: RunContext,
  conversation: ChatMessage[],
  parser: PlanParser = JSON_PLAN_PARSER,
): Promise<RunOutcome> {
  const { run } = ctx;
  const planned = await writePlan(ctx, [...(await planningTurns(ctx)), ...conversation], 'plan', parser);
  if (!planned.ok) return planned.outcome;
  const plan: Plan = {
    revision: 0,
    steps: planned.value.map((step, index) => ({ ...step, index, status: 'pending' })),
  };
  run.setPlan(plan);
  run.emit('plan', plan);
  if (run.definition.plan_approval)
    return { finishReason: 'awaiting_approval', reply: describePlan(ctx.prompts, plan) };
  await ctx.journal?.planChanged(run);
  return carryOutPlan(ctx, conversation, parser);
}

/** Runs the pending steps of `run.plan` (a new plan, an approved one, or the caller's), then summarises. */
export async function carryOutPlan(
  ctx: RunContext,
  conversation: ChatMessage[],
  parser: PlanParser = JSON_PLAN_PARSER,
): Promise<RunOutcome> {
  const { run } = ctx;
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
    stop = await runStep(ctx, conversation, plan, plan.steps[i], progress, parser);
    // A held step waits for its decision; the steps after it are still to come.
    if (stop && !stop.held) skipFrom(ctx, plan, i + 1);
  }
  await ctx.journal?.planChanged(run);
  if (run.abortReason) return ended(run, run.abortReason);
  if (stop?.held)
    return {
      finishReason: 'awaiting_approval',
      reply: awaitingApprovalReply(stop.held),
      heldCalls: stop.held,
    };
  if (stop && stop.reason !== 'error' && stop.reason !== 'max_tool_calls')
    return ended(run, stop.reason, stop.error);
  const summaryConversation = [...conversation, ...progress.planTurns];
  return writeSummary(ctx, summaryConversation, progress.observations, stop);
}

/** One step; what it means for the rest of the plan. */
async function runStep(
  ctx: RunContext,
  conversation: ChatMessage[],
  plan: Plan,
  step: PlanStep,
  progress: Progress,
  parser: PlanParser,
): Promise<Stop | undefined> {
  const { run } = ctx;
  if (run.abortReason) return { reason: run.abortReason };
  const done = await runPlanStep(ctx, step);
  if (done.held) return { reason: 'awaiting_approval', held: done.held };
  progress.observations.push(done.observation);
  if (done.limitReached) {
    return {
      reason: 'max_tool_calls',
      error: `step ${step.index + 1} (${step.tool}) reached the limit of function calls`,
    };
  }
  return done.failed ? afterFailure(ctx, conversation, plan, step, progress, parser) : undefined;
}

/** The agent's step-failure policy: go on (skip, or a readable revision), or stop. */
async function afterFailure(
  ctx: RunContext,
  conversation: ChatMessage[],
  plan: Plan,
  failed: PlanStep,
  progress: Progress,
  parser: PlanParser,
): Promise<Stop | undefined> {
  const { run } = ctx;
  const policy = run.definition.step_failure;
  if (policy === 'skip') return undefined;
  const failure: Stop = {
    reason: 'error',
    error: `step ${failed.index + 1} (${failed.tool}) failed: ${failed.error ?? 'unknown error'}`,
  };
  if (policy !== 'replan' || progress.replansLeft-- <= 0) return failure;
  const request: ChatMessage = { role: 'user', content: replanRequest(ctx.prompts, plan, failed) };
  const soFar = [...conversation, ...progress.planTurns];
  const revised = await writePlan(ctx, [...(await planningTurns(ctx)), ...soFar, request], 'replan', parser);
  if (!revised.ok) {
    const reason = revised.outcome.finishReason;
    return reason === 'parse_error' || reason === 'error' ? failure : { reason: reason as Stop['reason'] };
  }
  const kept = plan.steps.filter((step) => step.status !== 'pending');
  const added = revised.value.map((step, i) => ({
    ...step,
    index: kept.length + i,
    status: 'pending' as const,
  }));
  plan.steps = [...kept, ...added];
  plan.revision += 1;
  progress.planTurns.push(request, { role: 'assistant', content: planText(added) });
  run.emit('plan', plan);
  await ctx.journal?.planChanged(run);
  return undefined;
}

function skipFrom(ctx: RunContext, plan: Plan, from: number): void {
  for (const step of plan.steps.slice(from)) {
    if (step.status !== 'pending') continue;
    step.status = 'skipped';
    ctx.run.emit('step', step);
  }
}

async function planningTurns(ctx: RunContext): Promise<ChatMessage[]> {
  const functions = await allowedFunctions(ctx);
  return systemTurns(planningPrompt(ctx.prompts, ctx.run.definition, functions), ctx.run.definition);
}
