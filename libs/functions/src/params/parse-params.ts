import { InvalidParamsError } from '@app/contracts/portable';
import { type FunctionParameters, validateParams } from '@app/protocol/portable';
import { paramsSchema } from './params-schema';

const schemas = new WeakMap<object, FunctionParameters>();

/**
 * A call's parameters as an instance of its parameter class, checked against the class's schema
 * by the one validator (`validateParams` of @app/protocol) before `execute` sees them; every bad
 * or unknown field is listed in one InvalidParamsError.
 */
export function parseParams<P extends object>(cls: new () => P, input: unknown): P {
  const result = validateParams(schemaOf(cls), input);
  if (!result.ok) {
    const fields = result.errors.map((e) => ({ field: e.path, message: e.message }));
    throw new InvalidParamsError(fields, 'invalid params');
  }
  return Object.assign(new cls(), result.value);
}

/** One schema object per class, so the validator compiled for it is reused. */
function schemaOf(cls: new () => object): FunctionParameters {
  let schema = schemas.get(cls);
  if (!schema) {
    schema = paramsSchema(cls);
    schemas.set(cls, schema);
  }
  return schema;
}
