import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { loadModule } from './load-module';
import type { FunctionParameters, ParameterType } from './types';

export interface ParamError {
  /** Where: the parameter's name, then `[i]` for an array item and `.name` for an object field. */
  path: string;
  message: string;
}

export type ParamsValidation =
  { ok: true; value: Record<string, unknown> } | { ok: false; errors: ParamError[] };

// Nothing is converted (a number written as text stays text), every error is collected, and
// keywords the platform does not check (formats, vendor extensions) are ignored, not refused.
const OPTIONS = {
  allErrors: true,
  coerceTypes: false,
  useDefaults: false,
  strict: false,
  validateFormats: false,
  logger: false,
} as const;
let ajv: Ajv | undefined;

/**
 * ajv (~9 MB of a process) is loaded at the first compile, not with the library: an embedded agent
 * that has not validated a call yet does not carry it (docs/benchmarks.md); synchronously, as
 * validation is (load-module.ts).
 */
function loadedAjv(): Ajv {
  ajv ??= new (loadModule<typeof import('ajv')>('ajv').default)(OPTIONS);
  return ajv;
}
const compiled = new WeakMap<FunctionParameters, ValidateFunction>();

/**
 * Checks a call's parameters against its function's JSON Schema, the one validator of
 * parameters. Top-level defaults fill what is missing (a `null` counts as missing for an
 * optional parameter, and as absent for a required one), a smuggled `__proto__` is dropped,
 * unknown top-level parameters are refused, and each bad place is listed once, with its first
 * problem ("is required" rather than also "must be a string"). The input is not changed.
 * Compiled validators are cached per schema object: a schema must not be changed once used.
 * Throws only for a schema that is not valid JSON Schema.
 */
export function validateParams(schema: FunctionParameters, input: unknown): ParamsValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, errors: [{ path: 'params', message: 'must be an object' }] };
  const value = withDefaults(schema, input as Record<string, unknown>);
  const validate = validatorOf(schema);
  if (validate(value)) return { ok: true, value };
  // Unknown parameters last: what is wrong with the known ones matters more.
  const errors = [...(validate.errors ?? [])].sort((a, b) => unknownLast(a) - unknownLast(b));
  return { ok: false, errors: firstPerPath(errors.map(toParamError)) };
}

/** Whether a value is of a JSON Schema type (e.g. a schema's own `default`). */
export function matchesType(value: unknown, type: ParameterType): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/**
 * Compiles a JSON Schema with the platform's one ajv setup (the DTO validators of the bus and the
 * HTTP API share it). The caller caches the function: ajv's own cache would keep every schema ever
 * seen alive. Throws for a schema that is not valid JSON Schema.
 */
export function compileSchema(schema: object): (value: unknown) => boolean {
  return compiledOnce(schema);
}

function compiledOnce(schema: object): ValidateFunction {
  const validator = loadedAjv();
  const validate = validator.compile(schema);
  validator.removeSchema(schema);
  return validate;
}

function validatorOf(schema: FunctionParameters): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    const closed = {
      type: 'object',
      properties: schema.properties,
      required: schema.required ?? [],
      additionalProperties: false,
    };
    validate = compiledOnce(closed);
    compiled.set(schema, validate);
  }
  return validate;
}

// Plain assignment is safe here: `__proto__`, the one key it would misread, is never copied.
function withDefaults(schema: FunctionParameters, input: Record<string, unknown>): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key !== '__proto__' && input[key] !== null) value[key] = input[key];
  }
  for (const key of Object.keys(schema.properties)) {
    const fallback = schema.properties[key].default;
    if (fallback !== undefined && key !== '__proto__' && !Object.hasOwn(value, key))
      value[key] = typeof fallback === 'object' ? structuredClone(fallback) : fallback;
  }
  return value;
}

function unknownLast(error: ErrorObject): number {
  return error.keyword === 'additionalProperties' ? 1 : 0;
}

function toParamError(error: ErrorObject): ParamError {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: pathOf(at, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: pathOf(at, String(params.additionalProperty)), message: 'should not exist' };
    default:
      return { path: pathOf(at), message: messageOf(error.keyword, params, error.message) };
  }
}

function messageOf(keyword: string, params: Record<string, unknown>, fallback = 'is not valid'): string {
  switch (keyword) {
    case 'type':
      return `must be ${String(params.type).split(',').map(article).join(' or ')}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    default:
      return fallback;
  }
}

/** `/levels/1` → `levels[1]`; `/edits/0` and `old text` → `edits[0].old text`. */
function pathOf(pointer: string, field?: string): string {
  const parts = pointer === '' ? [] : pointer.slice(1).split('/').map(unescape);
  if (field !== undefined) parts.push(field);
  let path = '';
  for (const part of parts) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  return path;
}

function unescape(segment: string): string {
  return segment.includes('~') ? segment.replaceAll('~1', '/').replaceAll('~0', '~') : segment;
}

function firstPerPath(errors: ParamError[]): ParamError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.path) && seen.add(e.path));
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
