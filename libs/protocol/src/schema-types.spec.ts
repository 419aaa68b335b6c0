import { describe, expect, it } from 'vitest';
import { applySchemaTypes } from './schema-types';
import type { FunctionParameters, ParameterSchema } from './types';
import { parseXmlToonReply } from './xml-toon.codec';

const parameters: FunctionParameters = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    body: { type: 'string' },
    flag: { type: 'string' },
    days: { type: 'integer' },
    price: { type: 'number' },
    dry_run: { type: 'boolean' },
    ids: { type: 'array', items: { type: 'number' } },
    opts: { type: 'object' },
  },
};

function parseOne(reply: string) {
  const parsed = parseXmlToonReply(reply);
  if (parsed.kind !== 'calls') throw new Error(JSON.stringify(parsed));
  return parsed.calls[0];
}

describe('applySchemaTypes', () => {
  it('gives string parameters exactly the text the model wrote', () => {
    const call = parseOne('<call name="f"><p>code: 007</p><p>body: {"a": 1.50}</p><p>flag: true</p></call>');
    expect(applySchemaTypes(call, parameters)).toEqual({ code: '007', body: '{"a": 1.50}', flag: 'true' });
  });

  it('turns numeric and boolean text into numbers and booleans where the schema asks', () => {
    const call = parseOne('<call name="f"><p>days: 007</p><p>price: 2.50</p><p>dry_run: True</p></call>');
    expect(applySchemaTypes(call, parameters)).toEqual({ days: 7, price: 2.5, dry_run: true });
  });

  it('parses JSON text for array and object parameters', () => {
    const call = { name: 'f', params: { ids: '[1, 2]', opts: '{"x": true}' } };
    expect(applySchemaTypes(call, parameters)).toEqual({ ids: [1, 2], opts: { x: true } });
  });

  it('writes json-action numbers and booleans as text for string parameters', () => {
    expect(applySchemaTypes({ name: 'f', params: { code: 7, flag: false } }, parameters)).toEqual({
      code: '7',
      flag: 'false',
    });
  });

  it('leaves values it cannot conform, and unknown parameters, for validation to judge', () => {
    const call = { name: 'f', params: { days: 'soon', dry_run: 'maybe', ids: 'a, b', extra: 1 } };
    expect(applySchemaTypes(call, parameters)).toEqual(call.params);
  });

  it('does not read a raw text inherited from Object.prototype', () => {
    const call = parseOne('<call name="f"><data type="json">{"constructor": 5}</data></call>');
    const text: ParameterSchema = { type: 'string' };
    const schema: FunctionParameters = {
      type: 'object',
      properties: Object.fromEntries([['constructor', text]]),
    };
    expect(applySchemaTypes(call, schema)).toEqual({ constructor: '5' });
  });
});
