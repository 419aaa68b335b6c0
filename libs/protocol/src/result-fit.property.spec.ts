import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeResult } from './result-decoder';
import { encodeError, encodeResult } from './result.codec';
import type { ResultContent } from './types';

const UNITS = [
  ',',
  '"',
  '\\',
  '\n',
  '\t',
  ' ',
  ':',
  '<',
  '>',
  '&',
  '&lt;',
  '</data>',
  '</result>',
  '</every-row>',
  '</note>',
  '[',
  ']',
  '{',
  '}',
  '-',
  '0',
  '7',
  'a',
  'é',
  '😀',
  'true',
  'null',
  '2026-11-24T08:00:00.000Z',
];
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.constantFrom('007', '-1.5', 'true', 'null', ' padded ', ''),
);
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => n + 0);
const cell = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const key = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/) },
  { weight: 1, arbitrary: fc.constantFrom('has space', 'a:b', 'x,y', 'q"t', '-1', '') },
);

/** A table whose columns are sometimes the same in every row (null, a flag, a text). */
const table = fc
  .tuple(
    fc.uniqueArray(key, { minLength: 1, maxLength: 6 }),
    fc.integer({ min: 1, max: 60 }),
    fc.array(cell, { maxLength: 6 }),
  )
  .chain(([keys, rows, constants]) =>
    fc
      .array(fc.tuple(...keys.map(() => cell)), { minLength: rows, maxLength: rows })
      .map((cells) =>
        cells.map((row) =>
          Object.fromEntries(
            keys.map((k, i) => [k, i < constants.length && i % 2 === 0 ? constants[i] : row[i]]),
          ),
        ),
      ),
  );
const nested = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, cell, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 8 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
})).value;
const markdown = fc
  .array(fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 30 }), { maxLength: 12 })
  .map((lines) => lines.join('\n'));
const content: fc.Arbitrary<ResultContent> = fc.record(
  { message: text, data: fc.oneof(table, nested), markdown },
  { requiredKeys: [] },
);
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);

/** Content as the model should read it back: empty message and Markdown are not rendered. */
function expected(generated: ResultContent): ResultContent {
  const out: ResultContent = {};
  if (generated.message) out.message = generated.message;
  if (generated.data !== undefined) out.data = generated.data;
  if (generated.markdown) out.markdown = generated.markdown;
  return out;
}

describe('results read back', () => {
  it('decode to every value they were given, folded fields included', () => {
    fc.assert(
      fc.property(name, content, (fn, generated) => {
        const { name: decodedName, status, ...decoded } = decodeResult(encodeResult(fn, generated));
        expect({ decodedName, status }).toEqual({ decodedName: fn, status: 'success' });
        expect(decoded).toEqual(expected(generated));
      }),
      { numRuns: 500 },
    );
  });

  it('decode an error message exactly', () => {
    fc.assert(
      fc.property(name, text, (fn, message) => {
        expect(decodeResult(encodeError(fn, message)).error).toBe(message);
      }),
      { numRuns: 300 },
    );
  });
});

describe('results cut to a limit', () => {
  it('never exceed it, stay decodable and keep a prefix of whole rows', () => {
    fc.assert(
      fc.property(name, content, fc.integer({ min: 160, max: 3_000 }), (fn, generated, limit) => {
        const cut = encodeResult(fn, generated, {
          maxLength: limit,
          paging: { offsetParam: 'offset', offset: 0 },
        });
        expect(cut.length).toBeLessThanOrEqual(limit);
        const decoded = decodeResult(cut);
        const whole = expected(generated);
        if (cut === encodeResult(fn, generated)) return;
        expect(decoded.note).toMatch(/^Cut to \d+ characters: /);
        if (decoded.markdown !== undefined)
          expect(whole.markdown?.startsWith(decoded.markdown.replace(/…$/, ''))).toBe(true);
        if (Array.isArray(whole.data) && Array.isArray(decoded.data) && !/in part/.test(decoded.note ?? ''))
          expect(decoded.data).toEqual(whole.data.slice(0, decoded.data.length));
      }),
      { numRuns: 300 },
    );
  });

  it('cut long error messages at a word and stay decodable', () => {
    fc.assert(
      fc.property(
        name,
        fc.array(text, { maxLength: 80 }),
        fc.integer({ min: 160, max: 600 }),
        (fn, words, limit) => {
          const message = words.join(' ');
          const cut = encodeError(fn, message, { maxLength: limit });
          expect(cut.length).toBeLessThanOrEqual(limit);
          const error = decodeResult(cut).error ?? '';
          if (error !== message) expect(message.startsWith(error.replace(/…$/, ''))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
