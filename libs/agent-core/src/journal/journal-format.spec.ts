import { describe, expect, it } from 'vitest';
import { AgentError } from '../errors';
import {
  JOURNAL_FORMAT,
  JournalFormatError,
  type JournalFormats,
  readJournal,
  type StoredJournalEntry,
  storedEntry,
} from './journal-format';
import type { JournalEntry } from './journal-entry';

/** A model step as an executor of format 1 stored it: no stop reason, no format. */
const formatOne = (toolCalls: unknown[]): StoredJournalEntry => ({
  seq: 1,
  kind: 'model_step',
  step: 1,
  elapsedMs: 3,
  text: 'calls add',
  toolCalls,
  usage: { prompt_tokens: 10, completion_tokens: 2 },
});

const call = { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } };

describe('the journal format', () => {
  it('reads a format-1 model step as this engine writes it: the stop reason its calls imply', () => {
    const [step, native] = readJournal([formatOne([]), { ...formatOne([call]), seq: 2 }]);

    expect(step).toMatchObject({ kind: 'model_step', stopReason: 'stop' });
    expect(native).toMatchObject({ kind: 'model_step', stopReason: 'tool_calls' });
    expect(step).not.toHaveProperty('format');
  });

  it('keeps what the current format stored, the stop reason included', () => {
    const entry = { ...formatOne([]), stopReason: 'length' } as unknown as JournalEntry;

    expect(readJournal([storedEntry(entry)])).toEqual([entry]);
    expect(storedEntry(entry).format).toBe(JOURNAL_FORMAT);
  });

  it('upgrades each entry from the format it was written in, one format at a time', () => {
    const formats: JournalFormats = {
      current: 3,
      upgrades: {
        1: (entry) => ({ ...entry, seen: ['1→2'] }),
        2: (entry) => ({ ...entry, seen: [...((entry.seen as string[]) ?? []), '2→3'] }),
      },
    };

    const [oldest, middle, newest] = readJournal(
      [formatOne([]), { ...formatOne([]), format: 2 }, { ...formatOne([]), format: 3 }],
      formats,
    );

    expect(oldest).toMatchObject({ seen: ['1→2', '2→3'] });
    expect(middle).toMatchObject({ seen: ['2→3'] });
    expect(newest).not.toHaveProperty('seen');
  });

  it('refuses a journal a newer engine wrote, whole, naming both formats', () => {
    const newer = { ...formatOne([]), format: JOURNAL_FORMAT + 1 };

    const read = () => readJournal([formatOne([]), newer]);

    expect(read).toThrow(JournalFormatError);
    expect(read).toThrow(`format ${JOURNAL_FORMAT + 1}; this engine reads formats up to ${JOURNAL_FORMAT}`);
  });

  it('refuses a format it has no upgrade for, as an error of the engine, not a crash', () => {
    const formats: JournalFormats = { current: 2, upgrades: {} };

    expect(() => readJournal([formatOne([])], formats)).toThrow(AgentError);
  });
});
