import { type FieldError, InvalidParamsError, parseDto } from '@app/contracts';
import { paramEntries } from './param.decorator';

/**
 * Checks a call's parameters against its class before `execute` sees them: defaults fill what
 * is missing (a `null` counts as missing for an optional parameter), nothing is converted, and
 * every bad or unknown field is listed in one InvalidParamsError, with its first problem only
 * ("is required" rather than also "must be a string").
 */
export function validateParams<P extends object>(cls: new () => P, input: unknown): P {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidParamsError([{ field: 'params', message: 'must be an object' }]);
  }
  if (paramEntries(cls).length === 0) return noParams(cls, input as Record<string, unknown>);
  try {
    return parseDto(cls, withDefaults(cls, input as Record<string, unknown>), 'params');
  } catch (err) {
    if (err instanceof InvalidParamsError)
      throw new InvalidParamsError(firstPerField(err.fields), 'invalid params');
    throw err;
  }
}

function withDefaults(cls: object, input: Record<string, unknown>): Record<string, unknown> {
  const params = { ...input };
  for (const { name, schema, required } of paramEntries(cls)) {
    if (params[name] === null && !required) delete params[name];
    if (params[name] === undefined && schema.default !== undefined)
      params[name] = structuredClone(schema.default);
  }
  return params;
}

/** class-validator refuses a class without constraints, so a function without parameters is checked here. */
function noParams<P extends object>(cls: new () => P, input: Record<string, unknown>): P {
  const unknown = Object.keys(input).map((field) => ({ field, message: 'should not exist' }));
  if (unknown.length > 0) throw new InvalidParamsError(unknown, 'invalid params');
  return new cls();
}

function firstPerField(fields: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return fields.filter((f) => !seen.has(f.field) && seen.add(f.field));
}
