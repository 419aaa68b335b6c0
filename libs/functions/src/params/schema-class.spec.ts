import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { paramsClassFromSchema, paramsSchema, parseParams } from '@app/functions';

const parameters: FunctionDefinition['parameters'] = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'city name' },
    days: { type: 'integer', description: 'forecast days', default: 3, minimum: 1, maximum: 14 },
    units: { type: 'string', enum: ['metric', 'imperial'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
};

describe('paramsClassFromSchema', () => {
  it('round-trips a JSON-Schema-shaped definition through the @Param decorator', () => {
    const cls = paramsClassFromSchema(parameters);
    expect(paramsSchema(cls)).toEqual({
      ...parameters,
      properties: { ...parameters.properties, units: { type: 'string', enum: ['metric', 'imperial'] } },
    });
  });

  it('validates a custom function exactly like a built-in', () => {
    const cls = paramsClassFromSchema(parameters);
    expect({ ...parseParams(cls, { city: 'Oslo' }) }).toEqual({ city: 'Oslo', days: 3 });
    expect(() => parseParams(cls, { days: 20, units: 'kelvin', tags: [1] })).toThrow(
      /city: is required.*days: must be at most 14.*units: must be one of.*tags\[0\]: must be a string/,
    );
  });

  it('reuses the class for an identical schema', () => {
    expect(paramsClassFromSchema(structuredClone(parameters))).toBe(paramsClassFromSchema(parameters));
  });

  it('refuses a schema it cannot honour, naming the parameter', () => {
    const bad =
      (properties: Record<string, unknown>, required: string[] = []) =>
      () =>
        paramsClassFromSchema({ type: 'object', properties, required } as FunctionDefinition['parameters']);
    expect(bad({ when: { type: 'date' } })).toThrow(/parameter 'when': unknown type 'date'/);
    expect(bad({ constructor: { type: 'string' } })).toThrow(/parameter name 'constructor' is not allowed/);
    expect(bad({ a: { type: 'string' } }, ['b'])).toThrow(
      /required parameter 'b' is not among the properties/,
    );
    expect(() => paramsClassFromSchema({ type: 'array' } as never)).toThrow(/parameters must be/);
  });
});
