import { describe, expect, it } from 'vitest';
import { CreateCronBody, CreateDelayBody, InvalidParamsError, parseDto } from '@app/contracts';
import { cronInput, delayInput } from './task-input';

const NOW = new Date('2026-11-22T08:00:00Z');

function fieldsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (err) {
    if (err instanceof InvalidParamsError) return err.fields.map((f) => `${f.field}: ${f.message}`);
    throw err;
  }
  return [];
}

describe('the create-task bodies (the documented parameter names)', () => {
  it('accept the documented example and refuse each bad field with its own message', () => {
    const ok = parseDto(CreateDelayBody, {
      name: 'xmas',
      run_at: '2026-12-25T09:00:00+08:00',
      function: 'send_message',
      params: '{"to":"a"}',
    });
    expect(ok.run_at).toBe('2026-12-25T09:00:00+08:00');
    const fields = fieldsOf(() =>
      parseDto(CreateDelayBody, {
        name: 'a b',
        run_at: 'tomorrow',
        function: 'Send',
        params: '[1]',
        extra: 1,
      }),
    );
    expect(fields).toHaveLength(5);
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name: must be 1-64 letters/),
        expect.stringMatching(/^run_at: must be an ISO 8601 time with an offset/),
        expect.stringMatching(/^function: must be a function name in snake_case/),
        expect.stringMatching(/^params: must be a JSON object/),
        'extra: should not exist',
      ]),
    );
  });

  it('accept names in any script, and refuse max_runs below zero', () => {
    expect(parseDto(CreateCronBody, { name: '早安提醒', cron_expr: '0 9 * * *', function: 'f' }).name).toBe(
      '早安提醒',
    );
    expect(
      fieldsOf(() =>
        parseDto(CreateCronBody, { name: 'x', cron_expr: '0 9 * * *', function: 'f', max_runs: -1 }),
      ),
    ).toEqual([expect.stringMatching(/^max_runs: /)]);
  });
});

describe('delayInput', () => {
  const base = { name: 'd', run_at: '2026-11-22T09:00:00Z', function: 'send_message' };

  it('stores params as JSON text, whether given as text or object, and defaults the policy to missed', () => {
    expect(delayInput({ ...base, params: { to: 'a' } }, NOW)).toMatchObject({
      params: '{"to":"a"}',
      misfire_policy: 'missed',
      owner: '',
    });
    expect(delayInput({ ...base, params: '{"to":"a"}' }, NOW).params).toBe('{"to":"a"}');
    expect(delayInput(base, NOW).params).toBe('{}');
  });

  it('refuses a past run_at, naming the current time', () => {
    expect(fieldsOf(() => delayInput({ ...base, run_at: '2026-11-22T07:59:59Z' }, NOW))).toEqual([
      'run_at: is in the past (it is now 2026-11-22T08:00:00.000Z); give a future time',
    ]);
  });

  it('refuses a run_at more than ten years ahead (a slip of the year), and takes one just inside', () => {
    expect(fieldsOf(() => delayInput({ ...base, run_at: '2126-11-22T09:00:00Z' }, NOW))).toEqual([
      'run_at: is more than 10 years ahead; give a nearer time',
    ]);
    expect(delayInput({ ...base, run_at: '2036-11-20T09:00:00Z' }, NOW).run_at.getUTCFullYear()).toBe(2036);
  });

  it('wants exactly one of function and message', () => {
    expect(fieldsOf(() => delayInput({ name: 'd', run_at: base.run_at }, NOW))).toEqual([
      expect.stringMatching(/^function: is required \(or message/),
    ]);
    expect(fieldsOf(() => delayInput({ ...base, message: 'hi' }, NOW))).toEqual([
      expect.stringMatching(/^message: give either function/),
    ]);
    expect(
      fieldsOf(() => delayInput({ name: 'd', run_at: base.run_at, message: 'hi', params: '{}' }, NOW)),
    ).toEqual(['params: only applies to a function']);
  });

  it('makes a message an agent turn', () => {
    expect(
      delayInput({ name: 'd', run_at: base.run_at, message: 'stretch', session_id: 's1' }, NOW),
    ).toMatchObject({
      target: 'agent',
      function_name: '',
      message: 'stretch',
      session_id: 's1',
    });
  });
});

describe('cronInput', () => {
  const base = { name: 'c', cron_expr: ' 0  9 * * * ', function: 'send_message' };

  it('normalises the expression, defaults the zone to UTC and computes the first run', () => {
    expect(cronInput(base, NOW, 1_000)).toMatchObject({
      cron_expr: '0 9 * * *',
      timezone: 'UTC',
      max_runs: 0,
      until: null,
      next_run_at: new Date('2026-11-22T09:00:00Z'),
    });
  });

  it('refuses an until that ends the task before its first run', () => {
    expect(fieldsOf(() => cronInput({ ...base, until: '2026-11-22T08:30:00Z' }, NOW, 1_000))).toEqual([
      'until: comes before the first run (2026-11-22T09:00:00.000Z); the task would never run',
    ]);
  });
});
