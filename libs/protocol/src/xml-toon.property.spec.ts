import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonActionReply } from './json-action.codec';
import { applySchemaTypes } from './schema-types';
import type { ParsedCall, ParsedReply } from './types';
import { encodeCalls, parseXmlToonReply } from './xml-toon.codec';

const TRICKY_UNITS = [
  ',',
  '"',
  "'",
  '\n',
  '\t',
  ' ',
  '<',
  '>',
  '&',
  ':',
  ';',
  '/',
  '=',
  '[',
  ']',
  '{',
  '}',
  '-',
  '.',
  '0',
  '7',
  'a',
  'Z',
  'é',
  '日本',
  '😀',
  'true',
  'null',
  '&amp;',
  '&#38;',
  ']]>',
  '<![CDATA[',
  '</p>',
  '<p>',
  '</call>',
  '<call name="x">',
  '<data>',
  '</data>',
  '```',
];

const trickyString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRICKY_UNITS), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('007', '42', '-1.5', '1.50', 'true', 'null', '[1,2]', '{"a":1}', ' padded ', ''),
);
const jsonNumber = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
  .map((n) => n + 0);
const scalar = fc.oneof(trickyString, jsonNumber, fc.boolean(), fc.constant(null));
const structured = fc.oneof(
  fc.array(fc.record({ id: fc.nat(), label: trickyString, ok: fc.boolean() }), {
    minLength: 1,
    maxLength: 4,
  }),
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9 _:-]{0,6}$/), scalar, { maxKeys: 3 }),
);
const paramName = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/) },
  { weight: 1, arbitrary: fc.constantFrom('has space', 'a:b', '__proto__', 'ünï') },
);
const call: fc.Arbitrary<ParsedCall> = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9_.-]{0,15}$/),
  params: fc.dictionary(
    paramName,
    fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 1, arbitrary: structured }),
    {
      maxKeys: 5,
    },
  ),
});
const calls = fc.array(call, { minLength: 1, maxLength: 3 });

const FRAGMENTS = [
  '<call name="x">',
  '</call>',
  '<p>',
  '</p>',
  'k: v',
  '<data type="toon">',
  '</data>',
  '<![CDATA[',
  ']]>',
  '<',
  '&',
  '"',
  "'",
  '\n',
  '  ',
  '```xml\n',
  '{',
  '}',
  '[9]{a,b}:',
  ',',
  '\t',
  '</',
  '/>',
];

type Mutation = (text: string) => string;
const position = (text: string, ratio: number) => Math.floor(ratio * (text.length + 1));
const ratio = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(ratio, fc.nat({ max: 12 })).map(([at, length]): Mutation => (text) => {
    const start = position(text, at);
    return text.slice(0, start) + text.slice(start + length);
  }),
  fc.tuple(ratio, fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 }))).map(
    ([at, fragment]): Mutation =>
      (text) =>
        text.slice(0, position(text, at)) + fragment + text.slice(position(text, at)),
  ),
  fc.tuple(ratio, fc.nat({ max: 30 })).map(([at, length]): Mutation => (text) => {
    const start = position(text, at);
    return text.slice(0, start + length) + text.slice(start);
  }),
  ratio.map(
    (at): Mutation =>
      (text) =>
        text.slice(0, position(text, at)),
  ),
);

function expectWellFormed(reply: ParsedReply): void {
  if (reply.kind === 'invalid') expect(reply.error).toMatch(/^Your reply could not be read: \S/);
  else if (reply.kind === 'final') expect(typeof reply.answer).toBe('string');
  else expect(reply.calls.every((parsed) => parsed.name.length > 0)).toBe(true);
}

describe('xml-toon properties', () => {
  it('round-trips generated calls through encodeCalls and the parser', () => {
    fc.assert(
      fc.property(calls, (generated) => {
        const reply = parseXmlToonReply(encodeCalls(generated));
        expect(reply.kind === 'calls' && reply.calls.map(({ name, params }) => ({ name, params }))).toEqual(
          generated,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('gives a string parameter back exactly as written once the schema types it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), trickyString, (key, text) => {
        const reply = parseXmlToonReply(encodeCalls([{ name: 'f', params: { [key]: text } }]));
        if (reply.kind !== 'calls') throw new Error(JSON.stringify(reply));
        const properties = { [key]: { type: 'string' as const } };
        expect(applySchemaTypes(reply.calls[0], { type: 'object', properties })[key]).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on 10,000 random mutations of valid replies', () => {
    const prose = fc.constantFrom('', 'Let me look.\n', '```xml\n', 'Done.\n```');
    fc.assert(
      fc.property(
        prose,
        calls,
        prose,
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (before, generated, after, mutations) => {
          const text = mutations.reduce(
            (reply, mutate) => mutate(reply),
            before + encodeCalls(generated) + after,
          );
          expectWellFormed(parseXmlToonReply(text));
        },
      ),
      { numRuns: 10_000 },
    );
  });
});

describe('json-action properties', () => {
  it('never throws on 10,000 random mutations of valid replies', () => {
    const action = fc.record({
      type: fc.constant('action'),
      tool: fc.string(),
      args: fc.dictionary(fc.string(), scalar),
    });
    const final = fc.record({ type: fc.constant('final'), answer: trickyString });
    const reply = fc
      .oneof(action, final)
      .map((message) => `Thinking.\n\`\`\`json\n${JSON.stringify(message)}\n\`\`\``);
    fc.assert(
      fc.property(reply, fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, mutations) => {
        expectWellFormed(parseJsonActionReply(mutations.reduce((current, mutate) => mutate(current), text)));
      }),
      { numRuns: 10_000 },
    );
  });
});
