import type { ClientToolCall, ErrorBody, FinishReason, RunStatus } from '@app/contracts';
import type { RunState } from './run-state';
import type { HeldCall } from './tools/approval-gate';

/** What a run whose plan was rejected answers. */
export const REJECTED_REPLY = 'The plan was rejected; nothing was executed.';

/** How a run ended: the finish reason, the reply the user gets, and an error for the record. */
export interface RunOutcome {
  finishReason: FinishReason;
  reply: string;
  error?: string;
  /** Why the platform could not serve the run (its model unreachable or not configured), for the caller's status code. */
  failure?: ErrorBody;
  /** What the session keeps as the assistant's message, when not `reply` (a paused reply as written). */
  transcript?: string;
  /** `client_tool_calls`: the calls the caller must answer. */
  clientCalls?: ClientToolCall[];
  /** `awaiting_approval` at a tool step: the calls held for a decision. */
  heldCalls?: HeldCall[];
}

export function ended(
  run: RunState,
  finishReason: Exclude<FinishReason, 'final'>,
  error?: string,
): RunOutcome {
  return { finishReason, reply: endingReply(run, finishReason, error), ...(error ? { error } : {}) };
}

export function answered(reply: string): RunOutcome {
  return { finishReason: 'final', reply };
}

/** A run without a final answer still replies: one sentence saying why it stopped. */
function endingReply(run: RunState, reason: Exclude<FinishReason, 'final'>, error?: string): string {
  const profile = run.definition;
  switch (reason) {
    case 'max_steps':
      return `I stopped before finishing: the limit of ${profile.max_steps} steps was reached.`;
    case 'max_tool_calls':
      return `I stopped before finishing: the limit of ${profile.max_tool_calls} function calls was reached.`;
    case 'budget':
      // a call refused before it was sent says which budget it did not fit
      return `${error ? `I stopped before finishing: ${error}.` : budgetSpent(run)}${doneSoFar(run)}`;
    case 'timeout':
      return 'I stopped before finishing: the run took longer than its time limit.';
    case 'parse_error':
      return 'I stopped: my replies could not be read, even after a repair attempt.';
    case 'cancelled':
      return 'The run was cancelled.';
    case 'rejected':
      return REJECTED_REPLY;
    case 'awaiting_approval':
      return 'The plan is waiting for approval.';
    case 'client_tool_calls':
      return 'Waiting for the results of the client tool calls.';
    case 'error':
      // The error is the model call's (codes like llm_auth, already redacted), also on GET /runs/:id.
      return error
        ? `The run failed before it could answer (${error}).`
        : 'The run failed before it could answer.';
  }
}

function budgetSpent(run: RunState): string {
  const profile = run.definition;
  return run.overCostBudget()
    ? `I stopped before finishing: the cost budget of ${profile.max_cost_usd} USD was used up (spent ${run.cost} USD).`
    : `I stopped before finishing: the token budget of ${profile.total_token_budget} was used up.`;
}

/** What a run stopped by its budget had done: the calls it made (their results are on the run). */
function doneSoFar(run: RunState): string {
  if (run.functionCalls.length === 0) return '';
  return ` Done so far: ${run.functionCalls.map((call) => `${call.name} (${call.status})`).join(', ')}.`;
}

/** Where a run stands once its turn ended this way (its phase, and its stored status). */
export function statusOf(reason: FinishReason): RunStatus {
  if (reason === 'final') return 'completed';
  if (reason === 'awaiting_approval') return 'awaiting_approval';
  if (reason === 'client_tool_calls') return 'awaiting_tool_results';
  if (reason === 'cancelled' || reason === 'rejected') return 'cancelled';
  return 'failed';
}

/** A limit that stops the run before its next model call, if any. */
export function limitBeforeStep(run: RunState, maxSteps: number): Exclude<FinishReason, 'final'> | undefined {
  if (run.abortReason) return run.abortReason;
  if (run.overBudget()) return 'budget';
  if (run.step >= maxSteps) return 'max_steps';
  return undefined;
}
