import {
  errorObservation,
  type JournalEntry,
  respondedResult,
  successObservation,
  type ToolCallEntry,
} from '@app/agent-core';
import { type ForkToolResult, InvalidParamsError } from '@app/contracts';

export interface ForkEdits {
  fromStep: number;
  /** From step 2 on: a message the model reads before `fromStep`, as one the caller sent mid-run. */
  message?: string;
  toolResults?: ForkToolResult[];
}

/** How a result the caller gives becomes what the model reads: as the run's own observations are written. */
export interface ObservationFormat {
  maxLen: number;
  model?: string;
}

/**
 * A fork's journal: the run's entries of the steps before `fromStep`, numbered from 1, with the
 * previous step's calls answered as the caller says (written as the run writes a result, marked
 * as not executed) and the caller's message before `fromStep`. Refused whole, naming the field,
 * when the run has no such step or call.
 */
export function forkJournal(
  entries: JournalEntry[],
  edits: ForkEdits,
  format: ObservationFormat,
): JournalEntry[] {
  const { fromStep } = edits;
  const lastStep = Math.max(0, ...entries.filter((e) => e.kind === 'model_step').map((e) => e.step));
  if (fromStep > lastStep)
    throw new InvalidParamsError([
      { field: 'from_step', message: `must be a model step of the run, from 1 to ${lastStep}` },
    ]);
  const replaced = replacements(entries, edits, format);
  const kept = entries
    .filter((e) => e.step < fromStep)
    .map((e) => (e.kind === 'tool_call' && e.step === fromStep - 1 ? (replaced.get(e.index) ?? e) : e));
  const message: JournalEntry[] =
    edits.message !== undefined && fromStep > 1
      ? [{ kind: 'user_message', seq: 0, step: fromStep, text: edits.message, elapsedMs: 0 }]
      : [];
  return [...kept, ...message].map((entry, i) => ({ ...entry, seq: i + 1 }));
}

/** The previous step's calls the caller answers, by call index. */
function replacements(
  entries: JournalEntry[],
  { fromStep, toolResults = [] }: ForkEdits,
  format: ObservationFormat,
): Map<number, ToolCallEntry> {
  if (toolResults.length > 0 && fromStep < 2)
    throw new InvalidParamsError([
      { field: 'tool_results', message: 'need a step before from_step: from_step must be 2 or more' },
    ]);
  const calls = new Map(
    entries
      .filter((e): e is ToolCallEntry => e.kind === 'tool_call' && e.step === fromStep - 1)
      .map((e) => [e.index, e]),
  );
  const replaced = new Map<number, ToolCallEntry>();
  toolResults.forEach((given, i) => {
    const call = calls.get(given.index);
    if (!call)
      throw new InvalidParamsError([
        {
          field: `tool_results.${i}.index`,
          message: `step ${fromStep - 1} has no call ${given.index} (its calls: ${[...calls.keys()].join(', ') || 'none'})`,
        },
      ]);
    replaced.set(given.index, answered(call, given, format));
  });
  return replaced;
}

function answered(call: ToolCallEntry, given: ForkToolResult, format: ObservationFormat): ToolCallEntry {
  const { error: _journaled, ...rest } = call;
  if (given.status === 'error') {
    const message = typeof given.result === 'string' ? given.result : JSON.stringify(given.result);
    return {
      ...rest,
      status: 'error',
      observation: errorObservation(call.name, message, format.maxLen),
      error: { code: 'function_error', message },
      executed: false,
    };
  }
  // as a reviewer's stand-in result is given: structured data stays data, anything else is a message
  const result = respondedResult(given.result);
  return {
    ...rest,
    status: 'success',
    observation: successObservation(call.name, result, { maxLen: format.maxLen, model: format.model }),
    executed: false,
  };
}
