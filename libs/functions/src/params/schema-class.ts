import type { ParameterSchema } from '@app/contracts/portable';
import { Param } from './param.decorator';
import type { FunctionParameters } from './params-schema';

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const cache = new Map<string, new () => Record<string, unknown>>();

/**
 * Builds a parameter class from a JSON-Schema-shaped definition (a custom function's), through
 * the same `@Param` decorator, so plugins are checked and validated exactly like built-ins.
 * Classes are cached by schema, so an identical schema reuses its class and compiled validator.
 */
export function paramsClassFromSchema(parameters: FunctionParameters): new () => Record<string, unknown> {
  const key = JSON.stringify(parameters);
  const cached = cache.get(key);
  if (cached) return cached;
  if (
    parameters?.type !== 'object' ||
    typeof parameters.properties !== 'object' ||
    parameters.properties === null
  ) {
    throw new Error("parameters must be {type: 'object', properties: {...}}");
  }
  const required = new Set(Array.isArray(parameters.required) ? parameters.required : []);
  const cls = class CustomParams {};
  for (const [name, schema] of Object.entries(parameters.properties)) {
    if (!PARAM_NAME.test(name) || name in Object.prototype)
      throw new Error(`parameter name '${name}' is not allowed`);
    applyParam(cls, name, schema, required.has(name));
  }
  for (const name of required) {
    if (!(name in parameters.properties))
      throw new Error(`required parameter '${name}' is not among the properties`);
  }
  cache.set(key, cls as new () => Record<string, unknown>);
  return cls as new () => Record<string, unknown>;
}

function applyParam(cls: new () => object, name: string, schema: ParameterSchema, required: boolean): void {
  if (typeof schema !== 'object' || schema === null)
    throw new Error(`parameter '${name}' needs a schema object`);
  // An array's choices and bounds are its items'.
  const limits = schema.type === 'array' && schema.items ? schema.items : schema;
  try {
    Param({
      type: schema.type,
      description: typeof schema.description === 'string' ? schema.description : '',
      required,
      default: schema.default,
      enum: limits.enum,
      min: limits.minimum,
      max: limits.maximum,
      items: schema.items?.type,
    })(cls.prototype, name);
  } catch (err) {
    throw new Error(`parameter '${name}': ${(err as Error).message.replace(/^@Param [^:]+: /, '')}`);
  }
}
