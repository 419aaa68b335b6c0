import { describe, expect, it } from 'vitest';
import { matchesType, validateParams } from './params-validator';
import type { FunctionParameters } from './types';

const book: FunctionParameters = {
  type: 'object',
  properties: {
    room: { type: 'string', enum: ['red', 'blue'] },
    nights: { type: 'integer', minimum: 1, maximum: 14, default: 1 },
    price: { type: 'number', minimum: 0 },
    breakfast: { type: 'boolean' },
    guests: { type: 'array', items: { type: 'string' } },
    extras: { type: 'array', items: { type: 'string', enum: ['cot', 'parking'] } },
    contact: {
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      required: ['email'],
    },
    rooms: {
      type: 'array',
      items: { type: 'object', properties: { beds: { type: 'integer', minimum: 1 } }, required: ['beds'] },
    },
    notes: { type: 'object' },
  },
  required: ['room'],
};

function problems(input: unknown, schema: FunctionParameters = book): string[] {
  const result = validateParams(schema, input);
  return result.ok ? [] : result.errors.map((e) => `${e.path}: ${e.message}`);
}

describe('validateParams', () => {
  it('accepts parameters that fit and returns them with top-level defaults filled', () => {
    const input = { room: 'red', guests: ['Ada'], contact: { email: 'a@b.c' }, notes: { any: 1 } };
    const result = validateParams(book, input);
    expect(result).toEqual({ ok: true, value: { ...input, nights: 1 } });
    expect(input).not.toHaveProperty('nights');
  });

  it('names each type it expected', () => {
    expect(
      problems({
        room: 1,
        nights: 1.5,
        price: '3',
        breakfast: 'yes',
        guests: 'Ada',
        notes: [],
        contact: 'x',
      }),
    ).toEqual([
      'room: must be a string',
      'nights: must be an integer',
      'price: must be a number',
      'breakfast: must be a boolean',
      'guests: must be an array',
      'contact: must be an object',
      'notes: must be an object',
    ]);
  });

  it('converts nothing: numbers and booleans written as text are refused', () => {
    expect(problems({ room: 'red', nights: '2', breakfast: 'true' })).toEqual([
      'nights: must be an integer',
      'breakfast: must be a boolean',
    ]);
  });

  it('checks enums and ranges with the values the caller may use', () => {
    expect(problems({ room: 'green', nights: 0, price: -1 })).toEqual([
      'room: must be one of "red", "blue"',
      'nights: must be at least 1',
      'price: must be at least 0',
    ]);
    expect(problems({ room: 'red', nights: 15 })).toEqual(['nights: must be at most 14']);
  });

  it('names the place of a bad array item or nested field', () => {
    expect(
      problems({
        room: 'red',
        guests: ['Ada', 3],
        extras: ['cot', 'pool'],
        contact: { phone: '1' },
        rooms: [{ beds: 2 }, { beds: 0 }, {}],
      }),
    ).toEqual([
      'guests[1]: must be a string',
      'extras[1]: must be one of "cot", "parking"',
      'contact.email: is required',
      'rooms[1].beds: must be at least 1',
      'rooms[2].beds: is required',
    ]);
  });

  it('refuses unknown parameters (listed last) but lets a nested object carry more fields', () => {
    expect(problems({ pets: 1, room: 'blue', contact: { email: 'e', fax: '2' }, nights: 0 })).toEqual([
      'nights: must be at least 1',
      'pets: should not exist',
    ]);
  });

  it('lists each place once, with its first problem', () => {
    expect(problems({ room: 7 })).toEqual(['room: must be a string']);
    expect(problems({})).toEqual(['room: is required']);
  });

  it('treats null as missing: an optional parameter gets its default, a required one is missing', () => {
    expect(validateParams(book, { room: 'red', nights: null, price: null })).toEqual({
      ok: true,
      value: { room: 'red', nights: 1 },
    });
    expect(problems({ room: null })).toEqual(['room: is required']);
  });

  it('refuses params that are not an object', () => {
    for (const input of [['x'], 'x', null, undefined, 3])
      expect(problems(input)).toEqual(['params: must be an object']);
  });

  it('drops a smuggled __proto__ and never takes a default from Object.prototype', () => {
    const result = validateParams(book, JSON.parse('{"room":"red","__proto__":{"admin":true}}'));
    expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(result.ok && Object.keys(result.value)).toEqual(['room', 'nights']);
    const inherited = JSON.parse(
      '{"toString":{"type":"string","default":"x"}}',
    ) as FunctionParameters['properties'];
    expect(validateParams({ type: 'object', properties: inherited }, {})).toEqual({
      ok: true,
      value: { toString: 'x' },
    });
  });

  it('gives each default as a copy, so a call cannot change the schema', () => {
    const schema: FunctionParameters = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a'] } },
    };
    const first = validateParams(schema, {});
    if (first.ok) (first.value.tags as string[]).push('b');
    expect(validateParams(schema, {})).toEqual({ ok: true, value: { tags: ['a'] } });
  });

  it('accepts no params for a function without parameters, and lists any that are sent', () => {
    const none: FunctionParameters = { type: 'object', properties: {}, required: [] };
    expect(validateParams(none, {})).toEqual({ ok: true, value: {} });
    expect(problems({ a: 1, b: 2 }, none)).toEqual(['a: should not exist', 'b: should not exist']);
  });

  it('ignores formats and keywords it does not check, and throws for a schema that is not JSON Schema', () => {
    const loose = {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri', 'x-vendor': true } },
    } as unknown as FunctionParameters;
    expect(validateParams(loose, { url: 'not a uri' }).ok).toBe(true);
    const broken = {
      type: 'object',
      properties: { when: { type: 'date' } },
    } as unknown as FunctionParameters;
    expect(() => validateParams(broken, {})).toThrow(/schema is invalid/);
  });

  it('reuses the compiled validator of a schema object', () => {
    const schema: FunctionParameters = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(validateParams(schema, { n: 1 }).ok).toBe(true);
    schema.properties.n.type = 'string';
    expect(validateParams(schema, { n: 1 }).ok).toBe(true);
    expect(validateParams(structuredClone(schema), { n: 1 }).ok).toBe(false);
  });
});

describe('matchesType', () => {
  it('tells a value of each JSON Schema type', () => {
    expect(matchesType(3, 'integer')).toBe(true);
    expect(matchesType(3.5, 'integer')).toBe(false);
    expect(matchesType(Number.POSITIVE_INFINITY, 'number')).toBe(false);
    expect(matchesType([], 'array')).toBe(true);
    expect(matchesType([], 'object')).toBe(false);
    expect(matchesType(null, 'object')).toBe(false);
    expect(matchesType('x', 'string')).toBe(true);
    expect(matchesType('true', 'boolean')).toBe(false);
  });
});
