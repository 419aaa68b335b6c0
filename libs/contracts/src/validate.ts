import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { BadRequestError, type FieldError, InvalidParamsError } from './errors';

/**
 * Validates untrusted input (an HTTP body, a NATS message) against a DTO class, once, at the
 * boundary. Every bad field is listed; unknown fields are refused so typos surface, or dropped
 * (`unknown: 'strip'`) where a foreign wire format grows fields the platform does not use.
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
  const instance = plainToInstance(cls, input, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: unknown === 'refuse' });
  if (errors.length > 0) throw new InvalidParamsError(flatten(errors), `invalid ${what}`);
  return instance;
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    // A missing field fails every rule it has; one line says what is wrong.
    if (error.value === undefined && !error.children?.length) return [{ field, message: 'is required' }];
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.replace(/^property \S+ /, '').replace(new RegExp(`^${error.property} `), ''),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
