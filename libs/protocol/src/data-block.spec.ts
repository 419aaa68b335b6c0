import { describe, expect, it } from 'vitest';
import { normaliseBlock, readDataBlock } from './data-block';

const read = (text: string, attrs: Record<string, string> = {}) => readDataBlock({ attrs, text });

describe('readDataBlock', () => {
  it('decodes TOON keys into entries', () => {
    expect(read('path: /tmp\ntags[2]: a,b')).toEqual({
      ok: true,
      entries: { path: '/tmp', tags: ['a', 'b'] },
    });
  });

  it('decodes JSON whatever type the block declares', () => {
    expect(read('{"a": [1, 2]}', { type: 'toon' })).toEqual({ ok: true, entries: { a: [1, 2] } });
  });

  it('recovers an inline list whose declared count differs from its values', () => {
    expect(read('tags[3]: a,b')).toEqual({ ok: true, entries: { tags: ['a', 'b'] } });
  });

  it('names an unnamed list after the block name attribute', () => {
    expect(read('[2]{id}:\n  1\n  2', { name: 'rows' })).toEqual({
      ok: true,
      entries: { rows: [{ id: 1 }, { id: 2 }] },
    });
  });

  it('reads an empty block as no entries', () => {
    expect(read('\n   \n')).toEqual({ ok: true, entries: {} });
  });

  it('reports a row with the wrong number of fields, with its line', () => {
    expect(read('items[2]{id,name}:\n  1,A,extra\n  2,B')).toEqual({
      ok: false,
      problem: 'the <data> block is not valid TOON (Line 2: Expected 2 tabular row values, but got 3)',
    });
  });

  it('reports broken JSON in a json block', () => {
    expect(read('{"a": [1, 2}', { type: 'json' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
  });

  it('reports JSON cut off mid-way instead of reading it as TOON', () => {
    expect(read('{"items": [{"id": 1}, {"id"')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
  });

  it('reports prose that is not data', () => {
    expect(read('just some words')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('holds a bare value'),
    });
  });
});

describe('normaliseBlock', () => {
  it('strips common indentation, blank lines, CRLF and turns leading tabs into spaces', () => {
    expect(normaliseBlock('\r\n    a:\r\n\r\n    \tb: 1  \r\n')).toBe('a:\n  b: 1');
  });
});
