import { describe, expect, it } from 'vitest';
import { commonFieldsText, foldCommonFields, readCommonFields, unfoldCommonFields } from './common-fields';
import { encodeResult } from './result.codec';
import { encodeData } from './toon-data';

const tasks = Array.from({ length: 30 }, (_, i) => ({
  name: `remind_${i}`,
  run_at: new Date(Date.UTC(2026, 11, 1, 9, i)).toISOString(),
  status: i % 3 === 0 ? 'cancelled' : 'pending',
  owner: 'alice',
  executed_at: null,
  error: null,
}));

describe('fields common to every row', () => {
  it('are taken out of a table, null and identical columns alike, and put back exactly', () => {
    const folded = foldCommonFields(tasks);
    expect(folded?.common).toEqual({ owner: 'alice', executed_at: null, error: null });
    expect(Object.keys(folded!.rows[0])).toEqual(['name', 'run_at', 'status']);
    expect(unfoldCommonFields(folded!.rows, folded!.common)).toEqual(tasks);
  });

  it('are said once, on one line, before the table', () => {
    const text = encodeResult('delay_list', { data: tasks });
    expect(text).toContain(
      '<every-row>owner: alice, executed_at: null, error: null</every-row>\n<data type="toon">\n[30]{name,run_at,status}:',
    );
  });

  it('keep values with commas, quotes and colons readable back', () => {
    const common = { note: 'a, b', 'odd key': 'say "hi"', at: '09:00', n: -1.5, ok: true, empty: '' };
    expect(readCommonFields(commonFieldsText(common))).toEqual(common);
  });

  it('are not folded from a single row, nor when every field is common', () => {
    expect(foldCommonFields(tasks.slice(0, 1))).toBeUndefined();
    expect(foldCommonFields([{ a: 1 }, { a: 1 }])).toBeUndefined();
  });

  it('are folded only when that costs fewer tokens', () => {
    const twoRows = [
      { id: 1, flag: true },
      { id: 2, flag: true },
    ];
    expect(encodeData(twoRows).common).toBeUndefined();
    expect(encodeData(tasks).common).toBeDefined();
    expect(encodeData(tasks, { format: 'toon' }).common).toBeUndefined();
  });
});
