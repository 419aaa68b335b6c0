import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { compileSchema } from '@app/protocol';
import { BadRequestError, type FieldError, InvalidParamsError } from './errors';
import { type DtoClass, dtoSchemas } from './json-schema';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth';

/**
 * Validates untrusted input (an HTTP body, a NATS message) against a DTO class, once, at the
 * boundary. Every bad field is listed; unknown fields are refused so typos surface, or dropped
 * (`unknown: 'strip'`) where a foreign wire format grows fields the platform does not use.
 * A DTO whose JSON Schema is as strict as its rules (`dtoSchemas` with `strict`) is checked by ajv,
 * and the valid input is returned as it came, a plain object; class-validator then only words the
 * errors of a refused input, so they read as they always have. Other DTOs give class instances.
 */
export function parseDto<T extends object>(
  cls: new () => T,
  input: unknown,
  what = 'request',
  { unknown = 'refuse' }: { unknown?: 'refuse' | 'strip' } = {},
): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const hint = input === undefined ? ' (send one with content-type: application/json)' : '';
    throw new BadRequestError(`${what} must be a JSON object${hint}`);
  }
  const schemaCheck = unknown === 'refuse' ? schemaValidatorOf(cls).check : undefined;
  if (schemaCheck?.(input)) return input as T;
  if (nestedDeeperThan(input))
    throw new BadRequestError(`${what} is nested more than ${MAX_JSON_DEPTH} levels deep`);
  const instance = plainToInstance(cls, input, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: unknown === 'refuse' });
  if (errors.length > 0) throw new InvalidParamsError(flatten(errors), `invalid ${what}`);
  return schemaCheck ? (input as T) : instance;
}

/** Compiles a DTO's validator ahead of its first input (compiling takes milliseconds). */
export function prepareDto(cls: DtoClass): void {
  schemaValidatorOf(cls);
}

/** Why class-validator, not ajv, checks a DTO (undefined: ajv does). */
export function schemaValidationGap(cls: DtoClass): string | undefined {
  return schemaValidatorOf(cls).gap;
}

type SchemaValidator =
  { check: (input: unknown) => boolean; gap?: undefined } | { check?: undefined; gap: string };
const schemaValidators = new WeakMap<DtoClass, SchemaValidator>();

function schemaValidatorOf(cls: DtoClass): SchemaValidator {
  let validator = schemaValidators.get(cls);
  if (!validator) {
    validator = compileStrict(cls);
    schemaValidators.set(cls, validator);
  }
  return validator;
}

// Any failure leaves the DTO to class-validator, which is always right, only slower.
function compileStrict(cls: DtoClass): SchemaValidator {
  try {
    const $defs = dtoSchemas([cls], { closed: true, strict: true, ref: (name) => `#/$defs/${name}` });
    return { check: compileSchema({ $ref: `#/$defs/${cls.name}`, $defs }) };
  } catch (err) {
    return { gap: (err as Error).message };
  }
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    // A missing field fails every rule it has; one line says what is wrong.
    if (error.value === undefined && !error.children?.length) return [{ field, message: 'is required' }];
    // Rules that share a message (`limit`: an integer, at least 1, at most 100) say it once.
    const messages = Object.values(error.constraints ?? {}).map((message) =>
      message.replace(/^property \S+ /, '').replace(new RegExp(`^${error.property} `), ''),
    );
    const own = [...new Set(messages)].map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
