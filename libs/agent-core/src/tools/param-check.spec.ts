import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { paramErrors } from './param-check';

const definition: FunctionDefinition = {
  name: 'book',
  description: 'Books a room.',
  parameters: {
    type: 'object',
    properties: {
      room: { type: 'string', enum: ['red', 'blue'] },
      nights: { type: 'integer', minimum: 1, maximum: 14 },
      guests: { type: 'array', items: { type: 'string' } },
    },
    required: ['room'],
  },
};

describe('paramErrors', () => {
  it('accepts parameters that fit the schema', () => {
    expect(paramErrors(definition, { room: 'red', nights: 2, guests: ['Ada'] })).toEqual([]);
  });

  it('leaves a schema it cannot compile to the provider', () => {
    const odd = {
      ...definition,
      parameters: { ...definition.parameters, properties: { n: { type: 'integer', minimum: 'one' } } },
    };
    expect(paramErrors(odd as unknown as FunctionDefinition, { n: 1 })).toEqual([]);
  });

  it('lists every bad field at once', () => {
    const errors = paramErrors(definition, { nights: 0.5, guests: ['Ada', 3], pets: 1 });
    expect(errors).toEqual([
      { field: 'room', message: 'is required' },
      { field: 'nights', message: 'must be an integer' },
      { field: 'guests[1]', message: 'must be a string' },
      { field: 'pets', message: 'is not a parameter of book (known: room, nights, guests)' },
    ]);
    expect(paramErrors(definition, { room: 'green', nights: 30 })).toEqual([
      { field: 'room', message: 'must be one of "red", "blue"' },
      { field: 'nights', message: 'must be at most 14' },
    ]);
  });
});
