import type { FunctionDefinition } from '@app/contracts/portable';
import { paramEntries } from './param.decorator';

export type FunctionParameters = FunctionDefinition['parameters'];

/** Reflects a parameter class into the JSON-Schema-shaped `parameters` of its definition. */
export function paramsSchema(cls: new () => object): FunctionParameters {
  const entries = paramEntries(cls);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map((e) => [e.name, structuredClone(e.schema)])),
    required: entries.filter((e) => e.required).map((e) => e.name),
  };
}
