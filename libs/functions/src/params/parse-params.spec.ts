import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '@app/contracts';
import { Param, parseParams } from '@app/functions';

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

describe('parseParams', () => {
  it('fills defaults and returns an instance of the parameter class', () => {
    const params = parseParams(CleanLogsParams, { path: '/var/log/app' });
    expect(params).toBeInstanceOf(CleanLogsParams);
    expect({ ...params }).toEqual({ path: '/var/log/app', days: 7 });
  });

  it('lists every bad field at once, unknown ones included', () => {
    const fields = fieldsOf(() =>
      parseParams(CleanLogsParams, { days: 0, dry_run: 'yes', levels: ['info', 'debug'], extra: 1 }),
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        'path: is required',
        'days: must be at least 1',
        'dry_run: must be a boolean',
        'levels[1]: must be one of "info", "warn", "error"',
        'extra: should not exist',
      ]),
    );
  });

  it('converts nothing: a number written as text is refused for an integer parameter', () => {
    expect(fieldsOf(() => parseParams(CleanLogsParams, { path: 'x', days: '7' }))).toEqual([
      'days: must be an integer',
    ]);
  });

  it('treats null as missing for an optional parameter, but not for a required one', () => {
    expect(parseParams(CleanLogsParams, { path: 'x', days: null }).days).toBe(7);
    expect(fieldsOf(() => parseParams(CleanLogsParams, { path: null }))).toEqual(['path: is required']);
  });

  it('accepts no params for a function without parameters, and lists any that are sent', () => {
    class None {}
    expect(parseParams(None, {})).toBeInstanceOf(None);
    expect(fieldsOf(() => parseParams(None, { a: 1, b: 2 }))).toEqual([
      'a: should not exist',
      'b: should not exist',
    ]);
  });

  it('refuses params that are not an object', () => {
    expect(fieldsOf(() => parseParams(CleanLogsParams, ['x']))).toEqual(['params: must be an object']);
  });

  it('drops a smuggled __proto__ instead of letting it change the prototype', () => {
    const params = parseParams(CleanLogsParams, JSON.parse('{"path":"x","__proto__":{"admin":true}}'));
    expect(Object.getPrototypeOf(params)).toBe(CleanLogsParams.prototype);
    expect((params as { admin?: boolean }).admin).toBeUndefined();
  });
});
