import type { ErrorBody, FunctionResult } from '@app/contracts';
import type { HeldCall } from './approval-gate';

/** A call the model asked for, whatever the protocol it was written in. */
export interface ToolCall {
  name: string;
  params: Record<string, unknown>;
  /** xml-toon: each `<p>` as written, so the schema can restore string parameters. */
  raw?: Record<string, string>;
  /** native: the provider's id, answered by the tool message. */
  id?: string;
}

export interface ToolOutcome {
  call: ToolCall;
  /** The parameters after the schema's typing: what was (or would have been) executed. */
  args: Record<string, unknown>;
  status: 'success' | 'error';
  result?: FunctionResult;
  error?: ErrorBody;
  /** False when the call was refused before it reached a provider. */
  executed: boolean;
  elapsedMs: number;
  /** The encoded result the model reads, cut to `observation_max_len`. */
  observation: string;
  /** Answered from the run's journal (a run taken up again): it is journaled already. */
  replayed?: boolean;
  /** Its place among its step's calls. */
  index?: number;
}

export interface ToolBatch {
  outcomes: ToolOutcome[];
  /** The model asked for more calls than `max_tool_calls` leaves. */
  limitReached: boolean;
  /** Calls held for a decision (`needs_approval`): nothing of the step ran. */
  held?: HeldCall[];
}
