import type { ErrorBody } from '@app/contracts';
import type { CompletionResult, NativeToolCall, StopReason, TokenUsage } from '../model/model-client';
import type { ToolOutcome } from '../tools/tool-call';
import { tokensOf } from '../usage';

interface EntryBase {
  /** The entry's place in its run's journal, from 1, in the order the steps completed. */
  seq: number;
  /** The model step (`run.step`) it belongs to. */
  step: number;
  elapsedMs: number;
}

/** A model reply, as the model wrote it. */
export interface ModelStepEntry extends EntryBase {
  kind: 'model_step';
  text: string;
  toolCalls: NativeToolCall[];
  usage: TokenUsage;
  /** Why the model stopped (format 2 on; an older entry's is read as its calls say). */
  stopReason: StopReason;
}

/**
 * A tool call and its outcome, kept as the trace keeps it: the typed arguments and the observation
 * the model read (cut to `observation_max_len`), never the provider's whole result.
 */
export interface ToolCallEntry extends EntryBase {
  kind: 'tool_call';
  /** Its place among the calls of its step, in the model's order (entries follow the order the calls settled in). */
  index: number;
  name: string;
  /** native: the provider's id the tool message answers. */
  callId?: string;
  args: Record<string, unknown>;
  status: 'success' | 'error';
  observation: string;
  error?: ErrorBody;
  /** False when the call was refused (or answered by the run) before it reached a provider. */
  executed: boolean;
}

/**
 * A call about to be sent, journaled (and written) before it is: a run taken over finds a call
 * that started without an outcome, and knows it may have run.
 */
export interface ToolStartedEntry extends EntryBase {
  kind: 'tool_started';
  index: number;
  name: string;
  args: Record<string, unknown>;
}

/** A message the caller added while the run ran, read before model step `step`. */
export interface UserMessageEntry extends EntryBase {
  kind: 'user_message';
  text: string;
}

export type JournalEntry = ModelStepEntry | ToolCallEntry | ToolStartedEntry | UserMessageEntry;

/** Numbers one run's entries: `seq` across the run, the call index within a step. */
export class JournalCursor {
  private step = 0;
  private index = 0;

  /** `lastSeq`: the last entry already journaled for the run (a run taken up again goes on from it). */
  constructor(private lastSeq = 0) {}

  modelStep(step: number, result: CompletionResult): ModelStepEntry {
    return {
      seq: ++this.lastSeq,
      kind: 'model_step',
      step,
      text: result.text,
      toolCalls: result.toolCalls,
      usage: tokensOf(result.usage),
      stopReason: result.stopReason,
      elapsedMs: result.elapsedMs,
    };
  }

  userMessage(step: number, text: string): UserMessageEntry {
    return { seq: ++this.lastSeq, kind: 'user_message', step, text, elapsedMs: 0 };
  }

  toolStarted(
    step: number,
    started: { index: number; name: string; args: Record<string, unknown> },
  ): ToolStartedEntry {
    return { seq: ++this.lastSeq, kind: 'tool_started', step, ...started, elapsedMs: 0 };
  }

  toolCall(step: number, outcome: ToolOutcome): ToolCallEntry {
    if (step !== this.step) [this.step, this.index] = [step, 0];
    // the call's own index when known: a run taken up mid-step goes on from its journaled calls
    const index = outcome.index ?? this.index;
    this.index = index + 1;
    return {
      seq: ++this.lastSeq,
      kind: 'tool_call',
      step,
      index,
      name: outcome.call.name,
      ...(outcome.call.id ? { callId: outcome.call.id } : {}),
      args: outcome.args,
      status: outcome.status,
      observation: outcome.observation,
      ...(outcome.error ? { error: outcome.error } : {}),
      executed: outcome.executed,
      elapsedMs: outcome.elapsedMs,
    };
  }
}
