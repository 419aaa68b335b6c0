import { describe, expect, it } from 'vitest';
import { paramsClassFromSchema, parseParams } from '@app/functions';
import { toFunctionParameters } from './mcp-tool-schema';

describe('MCP inputSchema → function parameters', () => {
  it('keeps types, required, enum, defaults and numeric bounds', () => {
    const parameters = toFunctionParameters({
      type: 'object',
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: {
        city: { type: 'string', enum: ['Paris', 'Oslo'], description: 'Where' },
        count: { type: 'number', minimum: 1, maximum: 10, default: 3 },
        note: { type: ['string', 'null'] },
        flag: { anyOf: [{ type: 'boolean' }, { type: 'null' }], default: 'not a boolean' },
      },
      required: ['city', 'ghost'],
    });
    expect(parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', enum: ['Paris', 'Oslo'], description: 'Where' },
        count: { type: 'number', minimum: 1, maximum: 10, default: 3 },
        note: { type: 'string' },
        flag: { type: 'boolean' },
      },
      required: ['city'],
    });
  });

  it('shows nested shapes in the description and validates through the platform validator', () => {
    const parameters = toFunctionParameters({
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] },
        },
      },
      required: ['edits'],
    });
    expect(parameters.properties.edits).toMatchObject({
      type: 'array',
      items: { type: 'object' },
      description: expect.stringContaining('each item: {"properties":{"oldText"'),
    });
    const cls = paramsClassFromSchema(parameters);
    expect(parseParams(cls, { edits: [{ oldText: 'a' }] })).toMatchObject({ edits: [{ oldText: 'a' }] });
    expect(() => parseParams(cls, { edits: 'nope' })).toThrow(/edits/);
    expect(() => parseParams(cls, { edits: [], extra: 1 })).toThrow(/extra: should not exist/);
  });

  it('accepts a tool without properties and refuses a property it cannot type', () => {
    expect(toFunctionParameters({ type: 'object' })).toEqual({
      type: 'object',
      properties: {},
      required: [],
    });
    expect(toFunctionParameters(undefined)).toEqual({ type: 'object', properties: {}, required: [] });
    expect(() =>
      toFunctionParameters({
        type: 'object',
        properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      }),
    ).toThrow("parameter 'v' has no single JSON type");
    expect(() => toFunctionParameters({ type: 'array' })).toThrow(/not object/);
  });
});
