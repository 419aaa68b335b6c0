import type { CompletionResult } from '../model/model-client';
import type { RunState } from '../run-state';
import type { JournalEntry, ModelStepEntry, ToolCallEntry, ToolStartedEntry } from './journal-entry';

/** A call that was sent but has no outcome in the journal: its executor stopped while it ran. */
export const IN_FLIGHT = 'in_flight';

/**
 * A run taken up again from its journal: the strategy runs from the top, and each model step and
 * tool call the journal holds is answered from it, in order, instead of being sent again; once
 * the journal is used up (or the run parts ways with it) everything runs live. Running the same
 * strategy again rather than rebuilding its state keeps ReAct and plan alike and the core
 * deterministic: the run's trace, usage and conversation are rebuilt by the code that built them.
 */
export class JournalReplay {
  private readonly models: ModelStepEntry[];
  private readonly tools = new Map<string, ToolCallEntry>();
  private readonly started = new Map<string, ToolStartedEntry>();
  private readonly messages = new Map<number, string[]>();
  /** The step the run resumes live from: the first one the journal does not hold. */
  readonly resumesAt: number;

  constructor(entries: readonly JournalEntry[]) {
    this.models = entries.filter((entry): entry is ModelStepEntry => entry.kind === 'model_step');
    for (const entry of entries) {
      if (entry.kind === 'tool_call') this.tools.set(key(entry.step, entry.index), entry);
      if (entry.kind === 'tool_started') this.started.set(key(entry.step, entry.index), entry);
      if (entry.kind === 'user_message')
        this.messages.set(entry.step, [...(this.messages.get(entry.step) ?? []), entry.text]);
    }
    this.resumesAt = (this.models.at(-1)?.step ?? 0) + 1;
  }

  /** Set by the first model step or call sent live. */
  private live = false;

  /** Whether the run is still retracing its journal (its events were told before, and are withheld). */
  replaying(step: number): boolean {
    return !this.live && (step < this.resumesAt || this.models.length > 0 || this.tools.size > 0);
  }

  /** The caller's messages journaled before model step `step`, handed out once. */
  userMessages(step: number): string[] {
    const texts = this.messages.get(step) ?? [];
    this.messages.delete(step);
    return texts;
  }

  /** Whether the journal has the run go on after model step `step` (a message came as it answered). */
  continuesAfter(step: number): boolean {
    return this.messages.has(step + 1) || this.models.some((entry) => entry.step > step);
  }

  /** The journaled reply of model step `step`, or undefined: call the model. */
  modelStep(step: number): CompletionResult | undefined {
    const next = this.models[0];
    if (!next || next.step !== step) {
      // A live model call: what is left of the journal can no longer belong to this run.
      this.models.length = 0;
      this.tools.clear();
      this.live = true;
      return undefined;
    }
    this.models.shift();
    return {
      text: next.text,
      toolCalls: next.toolCalls,
      usage: { ...next.usage },
      stopReason: next.stopReason,
      model: '',
      provider: 'journal',
      elapsedMs: next.elapsedMs,
    };
  }

  /** Whether the journal holds the outcome of call `index` of step `step` (nothing is handed out). */
  hasToolCall(step: number, index: number): boolean {
    return this.tools.has(key(step, index));
  }

  /**
   * The journaled outcome of call `index` of step `step`; `in_flight` when it was sent and its
   * outcome never came back (it may have run); undefined: make the call.
   */
  toolCall(step: number, index: number): ToolCallEntry | typeof IN_FLIGHT | undefined {
    const at = key(step, index);
    const entry = this.tools.get(at);
    const started = this.started.get(at);
    this.tools.delete(at);
    this.started.delete(at);
    if (entry) return entry;
    this.live = true;
    return started ? IN_FLIGHT : undefined;
  }
}

/** Makes `ctx` answer from `replay` until it is used up; its run's events are withheld meanwhile. */
export function resumeFromJournal<C extends { run: RunState; replay?: JournalReplay }>(
  ctx: C,
  replay: JournalReplay,
): C {
  ctx.run.muteWhile(() => replay.replaying(ctx.run.step));
  return { ...ctx, replay };
}

function key(step: number, index: number): string {
  return `${step}:${index}`;
}
