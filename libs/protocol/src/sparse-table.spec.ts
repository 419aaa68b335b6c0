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
  it('writes the union of the fields, an object’s as parent.child, an empty cell where a row lacks one', () => {
    const encoded = encodeData(entries);
    expect(encoded).toMatchObject({ type: 'toon', absent: '' });
    expect(encoded.text.split('\n')[0]).toBe('[12\t]{ts\tlevel\tmsg\trequest_id\terror.code\terror.retry}:');
    expect(encoded.text.split('\n')[2]).toBe(' "2026-11-01T08:01:00Z"\tinfo\tserved\t\t\t');
  });

  it('marks absence with ~ where a row holds an empty string, and reads either back exactly', () => {
    const withEmpty = entries.map((entry, i) => (i === 4 ? { ...entry, msg: '' } : entry));
    const encoded = encodeData(withEmpty);
    expect(encoded).toMatchObject({ type: 'toon', absent: '~' });
    expect(encoded.text.split('\n')[2]).toBe(' "2026-11-01T08:01:00Z",info,served,~,~,~');
    for (const data of [entries, withEmpty])
      expect(JSON.stringify(decodeResult(encodeResult('tail_logs', { data })).data)).toBe(
        JSON.stringify(data),
      );
  });

  it('reads back rows lacking their first or last fields, comma- or tab-delimited', () => {
    const cases: [unknown[], string][] = [
      [[{ a: 1, b: 2, c: 'x' }, { a: 3, b: 4 }, { a: 5 }], ''], // trailing empty cells
      [
        [
          { a: 'one, two', b: 1, c: true },
          { a: 'three, four', c: false },
        ],
        '',
      ], // tab-delimited
      [
        [
          { a: 1, b: 2, c: 'x' },
          { b: 3, c: 'y' },
          { a: 4, b: 5 },
        ],
        '~',
      ], // a line would open with it
      [[{ a: 'one, two', b: 1, c: true }, { b: 2 }], '~'],
      [[{ a: 1, o: { x: 1, y: 'z' } }, { a: 2 }, { a: 3, o: { y: 'w' } }], ''],
    ];
    for (const [kind, absent] of cases) {
      const data = Array.from({ length: 6 }, () => kind).flat();
      const text = encodeResult('f', { data });
      expect(text, JSON.stringify(kind)).toContain(`<data type="toon" absent="${absent}">`);
      expect(decodeResult(text).data).toEqual(data);
    }
  });

  it('reads back exactly, whole or cut to a length', () => {
    const text = encodeResult('tail_logs', { data: entries });
    expect(text).toContain('<data type="toon" absent="">');
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
      [{ a: '', b: '~' }, { a: 1 }], // a value that is the marker (~ since a row holds an empty string)
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
    ).toEqual({
      rows: [
        { a: 1, b: 2, c: '' },
        { a: 4, b: '', c: 5 },
      ],
      absent: '',
    });
    expect(flattenRows([{ a: '', b: 2 }, { a: 4, c: 5 }, {}])).toBeUndefined(); // mostly absent
    expect(
      flattenRows([
        { a: '', b: 2 },
        { a: 4, c: 5 },
      ]),
    ).toEqual({
      rows: [
        { a: '', b: 2, c: '~' },
        { a: 4, b: '~', c: 5 },
      ],
      absent: '~',
    });
  });

  it('reads a table written with ~ before', () => {
    const text =
      '<result name="f" status="success">\n  <data type="toon" absent="~">\n[2]{a,b}:\n  1,~\n  ~,2\n  </data>\n</result>';
    expect(decodeResult(text).data).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('refuses absent="~" beside data that is not a table', () => {
    const text =
      '<result name="f" status="success">\n  <data type="toon" absent="~">\na: 1\n  </data>\n</result>';
    expect(() => decodeResult(text)).toThrow(/not a table/);
  });
});
