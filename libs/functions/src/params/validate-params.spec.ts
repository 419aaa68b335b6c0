import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '@app/contracts';
import { Param, validateParams } from '@app/functions';

class CleanLogsParams {
  @Param({ description: 'directory', required: true }) path!: string;
  @Param({ description: 'days to keep', type: 'integer', default: 7, min: 1, max: 365 }) days?: number;
  @Param({ description: 'preview only' }) dry_run?: boolean;
  @Param({ description: 'levels', items: 'string', enum: ['info', 'warn', 'error'] }) levels?: string[];
}

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError);
    return (err as InvalidParamsError).fields.map((f) => `${f.field}: ${f.message}`);
  }
  throw new Error('expected an InvalidParamsError');
}

describe('validateParams', () => {
  it('fills defaults and returns an instance of the parameter class', () => {
    const params = validateParams(CleanLogsParams, { path: '/var/log/app' });
    expect(params).toBeInstanceOf(CleanLogsParams);
    expect({ ...params }).toEqual({ path: '/var/log/app', days: 7 });
  });

  it('lists every bad field at once, unknown ones included', () => {
    const fields = fieldsOf(() =>
      validateParams(CleanLogsParams, { days: 0, dry_run: 'yes', levels: ['info', 'debug'], extra: 1 }),
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        'path: is required',
        'days: must not be less than 1',
        'dry_run: must be a boolean value',
        expect.stringMatching(/^levels: each value in levels must be one of/),
        'extra: should not exist',
      ]),
    );
  });

  it('converts nothing: a number written as text is refused for an integer parameter', () => {
    expect(fieldsOf(() => validateParams(CleanLogsParams, { path: 'x', days: '7' }))).toEqual([
      'days: must be an integer number',
    ]);
  });

  it('treats null as missing for an optional parameter, but not for a required one', () => {
    expect(validateParams(CleanLogsParams, { path: 'x', days: null }).days).toBe(7);
    expect(fieldsOf(() => validateParams(CleanLogsParams, { path: null }))).toEqual(['path: is required']);
  });

  it('accepts no params for a function without parameters, and lists any that are sent', () => {
    class None {}
    expect(validateParams(None, {})).toBeInstanceOf(None);
    expect(fieldsOf(() => validateParams(None, { a: 1, b: 2 }))).toEqual([
      'a: should not exist',
      'b: should not exist',
    ]);
  });

  it('refuses params that are not an object', () => {
    expect(fieldsOf(() => validateParams(CleanLogsParams, ['x']))).toEqual(['params: must be an object']);
  });

  it('drops a smuggled __proto__ instead of letting it change the prototype', () => {
    const params = validateParams(CleanLogsParams, JSON.parse('{"path":"x","__proto__":{"admin":true}}'));
    expect(Object.getPrototypeOf(params)).toBe(CleanLogsParams.prototype);
    expect((params as { admin?: boolean }).admin).toBeUndefined();
  });
});
