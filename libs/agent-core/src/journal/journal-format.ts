import { AgentError } from '../errors';
import type { JournalEntry } from './journal-entry';

/**
 * The journal format this engine writes. A run may be taken up by an executor of the next
 * version while it runs (a rolling upgrade), so every entry is stored with the format it was
 * written in, and read through the upgrades below: an executor reads every older format.
 *
 * 1: the entries as first journaled. 2: a model step keeps the model's stop reason.
 */
export const JOURNAL_FORMAT = 2;

/** An entry as it was stored: its fields, and the format it was written in (absent: 1). */
export type StoredJournalEntry = Record<string, unknown> & { format?: number };

type Upgrade = (entry: Record<string, unknown>) => Record<string, unknown>;

/** What a reader knows: the format it writes, and for each older format n the step to n + 1. */
export interface JournalFormats {
  current: number;
  upgrades: Readonly<Record<number, Upgrade>>;
}

export const JOURNAL_FORMATS: JournalFormats = {
  current: JOURNAL_FORMAT,
  upgrades: {
    // Format 1 did not keep the stop reason: a step that called tools stopped for them, any other at its end.
    1: (entry) =>
      entry.kind === 'model_step'
        ? { ...entry, stopReason: (entry.toolCalls as unknown[]).length > 0 ? 'tool_calls' : 'stop' }
        : entry,
  },
};

/**
 * A journal written in a format newer than this engine reads (an executor of a later version wrote
 * it, and this one was rolled back, or is older than its peers): refused whole, never half read.
 */
export class JournalFormatError extends AgentError {
  override name = 'JournalFormatError';

  constructor(
    readonly format: number,
    readonly reads: number,
  ) {
    super(
      'journal_format',
      `the journal was written in format ${format}; this engine reads formats up to ${reads}`,
    );
  }
}

/** What an entry is stored as: its fields, and the format this engine writes. */
export function storedEntry(entry: JournalEntry): StoredJournalEntry & JournalEntry {
  return { ...entry, format: JOURNAL_FORMAT };
}

/**
 * The entries as this engine reads them, each upgraded from the format it was written in. One of
 * a newer format refuses the whole journal with a `JournalFormatError`.
 */
export function readJournal(
  stored: readonly StoredJournalEntry[],
  formats: JournalFormats = JOURNAL_FORMATS,
): JournalEntry[] {
  const newest = Math.max(0, ...stored.map(formatOf));
  if (newest > formats.current) throw new JournalFormatError(newest, formats.current);
  return stored.map((entry) => upgraded(entry, formats));
}

function upgraded(entry: StoredJournalEntry, formats: JournalFormats): JournalEntry {
  const { format: _written, ...fields } = entry;
  let current: Record<string, unknown> = fields;
  for (let format = formatOf(entry); format < formats.current; format++) {
    const upgrade = formats.upgrades[format];
    if (!upgrade) throw new AgentError('journal_format', `no upgrade of journal format ${format}`);
    current = upgrade(current);
  }
  return current as unknown as JournalEntry;
}

function formatOf(entry: StoredJournalEntry): number {
  return entry.format ?? 1;
}
