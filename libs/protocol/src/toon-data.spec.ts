import { decode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens';
import { encodeData, isUniformTable } from './toon-data';

const rows = Array.from({ length: 20 }, (_, id) => ({ id, name: `user${id}`, active: id % 2 === 0 }));

describe('encodeData', () => {
  it('encodes a uniform table as TOON', () => {
    const data = encodeData(rows);
    expect(data.type).toBe('toon');
    expect(data.text.split('\n')[0]).toBe('[20]{id,name,active}:');
    expect(data.text.split('\n')[1]).toBe(' 0,user0,true');
    expect(decode(data.text, { indentSize: 1 })).toEqual(rows);
  });

  it('picks whichever of TOON and compact JSON costs fewer tokens for irregular data', () => {
    const irregular = { a: [1, { b: [2, { c: [3, { d: null }] }] }], e: { f: { g: 'h' } } };
    const chosen = encodeData(irregular);
    const toon = encodeData(irregular, { format: 'toon' });
    const json = encodeData(irregular, { format: 'json' });
    expect(countTokens(chosen.text)).toBe(Math.min(countTokens(toon.text), countTokens(json.text)));
  });

  it('encodes a table nested under a key as TOON when that is cheaper', () => {
    expect(encodeData({ users: rows, total: 20 }).type).toBe('toon');
  });

  it('brings values to the JSON data model first', () => {
    const data = encodeData(
      { at: new Date(0), big: 2n ** 70n, small: 5n, gone: undefined },
      { format: 'json' },
    );
    expect(data.text).toBe('{"at":"1970-01-01T00:00:00.000Z","big":"1180591620717411303424","small":5}');
  });

  it("tells what the chosen encoding saves against compact JSON, from the choice's own counts", () => {
    const told: number[] = [];
    const onSaved = (saved: () => number) => told.push(saved());
    const json = (value: unknown) => countTokens(JSON.stringify(value));
    const irregular = { total: 2, users: [{ id: 1, tags: ['a'] }, { id: 2 }] };
    const chosen = encodeData(irregular, { onSaved });
    const folded = encodeData(
      rows.map((r) => ({ ...r, team: 'core' })),
      { onSaved },
    );
    expect(folded.common).toEqual({ team: 'core' });
    const foldedCost = countTokens(folded.text) + countTokens(`<every-row>team: core</every-row>\n`);
    expect(told).toEqual([json(irregular) - countTokens(chosen.text), expect.any(Number)]);
    expect(told[1]).toBe(json(rows.map((r) => ({ ...r, team: 'core' }))) - foldedCost);
    expect(told[1]).toBeGreaterThan(0);
    encodeData(irregular, { format: 'json', onSaved });
    expect(told).toHaveLength(2);
  });

  it('encodes undefined as null rather than failing', () => {
    expect(encodeData(undefined)).toEqual({ type: 'json', text: 'null' });
  });
});

describe('isUniformTable', () => {
  it('accepts objects with the same primitive fields in any order', () => {
    expect(
      isUniformTable([
        { a: 1, b: 'x' },
        { b: null, a: 2 },
      ]),
    ).toBe(true);
  });

  it.each([
    ['an empty array', []],
    ['rows with different keys', [{ a: 1 }, { b: 1 }]],
    ['a nested value', [{ a: { b: 1 } }]],
    ['primitives', [1, 2]],
    ['empty objects', [{}, {}]],
  ])('rejects %s', (_label, value) => {
    expect(isUniformTable(value)).toBe(false);
  });
});
