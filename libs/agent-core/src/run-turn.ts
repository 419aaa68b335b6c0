import type { AgentRunReply } from '@app/contracts';
import { HookFailed } from './errors';
import { pricedUsage } from './cost';
import type { ChatMessage } from './model/model-client';
import type { RunContext } from './run-context';
import { ended, type RunOutcome } from './run-outcome';
import type { RunState } from './run-state';
import type { PlanParser } from './strategies/plan-parser';
import { carryOutPlan, startPlan } from './strategies/plan';
import { runReact } from './strategies/react';

/** The agent's strategy for one turn: ReAct, or plan-then-execute (carrying on a plan the run already holds). */
export async function runStrategy(
  ctx: RunContext,
  conversation: ChatMessage[],
  parser: PlanParser,
): Promise<RunOutcome> {
  try {
    if (ctx.run.definition.mode !== 'plan') return await runReact(ctx, conversation);
    return ctx.run.plan
      ? await carryOutPlan(ctx, conversation, parser)
      : await startPlan(ctx, conversation, parser);
  } catch (err) {
    return endedByHook(ctx.run, err);
  }
}

/** A hook that stopped the run ends it with `error`, naming the hook; anything else is thrown on. */
export function endedByHook(run: RunState, err: unknown): RunOutcome {
  if (!(err instanceof HookFailed)) throw err;
  return ended(run, 'error', `${err.code}: ${err.message}`);
}

/** The reply of a run that ended (or is held): what `run_end` carries and the chat API answers. */
export function replyOf(run: RunState, outcome: RunOutcome): AgentRunReply {
  return {
    session_id: run.identity.sessionId,
    run_id: run.runId,
    reply: outcome.reply,
    function_calls: run.functionCalls,
    finish_reason: outcome.finishReason,
    usage: pricedUsage(run.usage, run.price),
    ...(outcome.failure ? { error: outcome.failure } : {}),
    ...(outcome.clientCalls ? { client_tool_calls: outcome.clientCalls } : {}),
  };
}
