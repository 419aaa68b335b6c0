import { IN_FLIGHT } from '../journal/journal-replay';
import type { RunContext } from '../run-context';
import type { ClientToolSet } from './client-tool-set';
import type { ToolCall, ToolOutcome } from './tool-call';
import { outcomeOf, replayedOutcome } from './tool-step';

/**
 * Client call `i` of a step is journaled at index `CLIENT_INDEX + i`: apart from the indices of
 * the step's platform calls (numbered among themselves), so neither answers for the other.
 */
const CLIENT_INDEX = 10_000;

/** Answers one client call of the reply the run paused on (its index in the reply). */
export type ClientAnswer = (call: ToolCall, index: number) => Promise<ToolOutcome>;

/**
 * How the client calls of a reply are answered, or undefined: the run waits for the caller. The
 * caller's results are read once and journaled as they are, so a run taken over after them (its
 * executor stopped) answers them from its journal and never asks the caller again.
 */
export function clientAnswers(
  ctx: RunContext,
  tools: ClientToolSet,
  calls: ToolCall[],
): ClientAnswer | undefined {
  const { run } = ctx;
  const fresh = ctx.clientResults?.take(tools.callIds(calls, run.runId));
  if (fresh)
    return async (call, index) => {
      const asked = tools.pendingCall(call, run.runId, index);
      const result = fresh.get(asked.id) ?? {};
      const outcome = {
        ...outcomeOf(ctx, call, asked.arguments, { result, executed: true, elapsedMs: 0 }),
        index: CLIENT_INDEX + index,
      };
      await ctx.journal?.toolCallCompleted(run, call, outcome);
      return outcome;
    };
  const indices = calls.flatMap((call, index) => (tools.has(call.name) ? [index] : []));
  const step = run.step;
  if (!ctx.replay || !indices.every((index) => ctx.replay?.hasToolCall(step, CLIENT_INDEX + index)))
    return undefined;
  const replay = ctx.replay;
  return async (call, index) => {
    const entry = replay.toolCall(step, CLIENT_INDEX + index);
    if (!entry || entry === IN_FLIGHT)
      throw new Error(`client call ${index} of step ${step} left the journal`);
    return { ...replayedOutcome(call, entry.args, entry), replayed: true, index: CLIENT_INDEX + index };
  };
}
