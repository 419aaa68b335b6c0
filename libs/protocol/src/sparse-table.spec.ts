import { describe, expect, it } from 'vitest';
import { decodeResult } from './result-decoder';
import { encodeResult } from './result.codec';
import { flattenRows } from './sparse-table';
import { encodeData } from './toon-data';

const entries = Array.from({ length: 12 }, (_, i) => ({
  ts: `2026-11-01T08:${String(i).padStart(2, '0')}:00Z`,
  level: i % 3 === 0 ? 'error' : 'info',
  msg: i % 3 === 0 ? 'upstream failed' : 'served',
  ...(i % 2 === 0 ? { request_id: `req-${i}` } : {}),
  ...(i % 3 === 0 ? { error: { code: 'ETIMEDOUT', retry: i % 2 === 0 } } : {}),
}));

describe('rows whose fields vary, as one table', () => {
  it('writes the union of the fields, an object’s as parent.child, ~ where a row lacks one', () => {
    const encoded = encodeData(entries);
    expect(encoded).toMatchObject({ type: 'toon', absent: '~' });
    expect(encoded.text.split('\n')[0]).toBe('[12]{ts,level,msg,request_id,error.code,error.retry}:');
    expect(encoded.text.split('\n')[2]).toBe(' "2026-11-01T08:01:00Z",info,served,~,~,~');
  });

  it('reads back exactly, whole or cut to a length', () => {
    const text = encodeResult('tail_logs', { data: entries });
    expect(text).toContain('<data type="toon" absent="~">');
    expect(JSON.stringify(decodeResult(text).data)).toBe(JSON.stringify(entries));
    const cut = encodeResult('tail_logs', { data: entries }, { maxLength: 400 });
    const rows = decodeResult(cut).data as unknown[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(entries.slice(0, rows.length));
  });

  it('is not offered when it would not read back exactly', () => {
    const cases: unknown[][] = [
      [
        { a: 1, b: 2 },
        { b: 3, a: 4, c: 5 },
      ], // keys in another order
      [{ a: '~' }, { a: 1, b: 2 }], // a value that is the marker
      [{ a: 1, o: {} }, { a: 2 }], // an empty object
      [{ 'a.b': 1 }, { c: 2 }], // a key with a dot
      [{ a: 1, o: { deep: { x: 1 } } }, { a: 2 }], // an object two levels deep
      [
        { a: 1, o: 2 },
        { a: 2, o: { x: 1 } },
      ], // a field both a value and an object
      [{ a: 1 }, { b: 2 }, { c: 3 }], // mostly absent cells: rows of different kinds
    ];
    for (const value of cases) expect(flattenRows(value), JSON.stringify(value)).toBeUndefined();
    expect(
      flattenRows([
        { a: 1, b: 2 },
        { a: 4, c: 5 },
      ]),
    ).toEqual([
      { a: 1, b: 2, c: '~' },
      { a: 4, b: '~', c: 5 },
    ]);
  });

  it('refuses absent="~" beside data that is not a table', () => {
    const text =
      '<result name="f" status="success">\n  <data type="toon" absent="~">\na: 1\n  </data>\n</result>';
    expect(() => decodeResult(text)).toThrow(/not a table/);
  });
});
