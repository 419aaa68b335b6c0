import { describe, expect, it } from 'vitest';
import { fieldsOf, paramsOf } from './schema-form';

const schema = {
  type: 'object' as const,
  properties: {
    city: { type: 'string' as const, description: 'where' },
    days: { type: 'integer' as const, minimum: 1, maximum: 7, default: 3 },
    ratio: { type: 'number' as const },
    metric: { type: 'boolean' as const },
    unit: { type: 'string' as const, enum: ['c', 'f'] },
    tags: { type: 'array' as const, items: { type: 'string' as const } },
  },
  required: ['city'],
};

describe('a "Try it" form from a function’s JSON Schema', () => {
  it('gives each property a control by its type, with its default, bounds and required flag', () => {
    expect(fieldsOf(schema)).toEqual([
      { name: 'city', control: 'text', required: true, integer: false, description: 'where', initial: '' },
      {
        name: 'days',
        control: 'number',
        required: false,
        integer: true,
        description: undefined,
        initial: '3',
        min: 1,
        max: 7,
      },
      {
        name: 'ratio',
        control: 'number',
        required: false,
        integer: false,
        description: undefined,
        initial: '',
        min: undefined,
        max: undefined,
      },
      {
        name: 'metric',
        control: 'checkbox',
        required: false,
        integer: false,
        description: undefined,
        initial: 'false',
      },
      {
        name: 'unit',
        control: 'select',
        required: false,
        integer: false,
        description: undefined,
        options: [
          { value: '"c"', label: 'c' },
          { value: '"f"', label: 'f' },
        ],
        initial: '',
      },
      { name: 'tags', control: 'json', required: false, integer: false, description: undefined, initial: '' },
    ]);
  });

  it('reads the values back as typed params, leaving empty fields out', () => {
    const fields = fieldsOf(schema);
    expect(
      paramsOf(fields, { city: 'Oslo', ratio: '0.5', metric: 'true', unit: '"f"', tags: '["a"]' }),
    ).toEqual({
      params: { city: 'Oslo', days: 3, ratio: 0.5, metric: true, unit: 'f', tags: ['a'] },
    });
    expect(paramsOf(fields, { days: '' })).toEqual({ params: { metric: false } });
  });

  it('refuses a JSON field that is not JSON, naming it', () => {
    expect(paramsOf(fieldsOf(schema), { tags: '[oops' })).toEqual({ error: 'tags: not valid JSON' });
  });

  it('has no fields for a function without parameters', () => {
    expect(fieldsOf({ type: 'object', properties: {}, required: [] })).toEqual([]);
  });
});
