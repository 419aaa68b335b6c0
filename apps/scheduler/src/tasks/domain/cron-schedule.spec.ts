import { describe, expect, it } from 'vitest';
import { cronProblems, dueTimesBetween, formatMs, nextDue } from './cron-schedule';

const NOW = new Date('2026-11-22T00:00:00Z');
const problemsOf = (expr: string, minIntervalMs = 1_000, timezone = 'UTC') =>
  cronProblems({ expr, timezone }, minIntervalMs, NOW).map((p) => `${p.field}: ${p.message}`);

describe('cronProblems', () => {
  it('accepts 5 fields, and 6 with seconds first', () => {
    expect(problemsOf('0 9 * * *')).toEqual([]);
    expect(problemsOf('*/5 0 9 * * MON-FRI')).toEqual([]);
  });

  it('refuses another number of fields with an example', () => {
    expect(problemsOf('0 9 * *')).toEqual([
      expect.stringMatching(/^cron_expr: must have 5 fields .*got 4.*'0 9 \* \* \*'/),
    ]);
    expect(problemsOf('0 0 9 * * * 2026')[0]).toMatch(/got 7/);
  });

  it('refuses values out of range and hashed (random) fields, but not day names containing H', () => {
    expect(problemsOf('61 9 * * *')[0]).toMatch(/^cron_expr: is not a valid cron expression: .*61/);
    expect(problemsOf('H 9 * * *')[0]).toMatch(/must not use 'H'/);
    expect(problemsOf('0 9 * * THU')).toEqual([]);
  });

  it('refuses an expression firing more often than the shortest interval, even unevenly', () => {
    expect(problemsOf('* * * * * *', 1_000)).toEqual([]);
    expect(problemsOf('*/10 * * * * *', 60_000)[0]).toMatch(
      /fires every 10 s, more often than the shortest interval allowed \(1 min\)/,
    );
    expect(problemsOf('0,1 * * * *', 120_000)[0]).toMatch(/fires every 1 min/);
  });

  it('refuses an unknown time zone', () => {
    expect(problemsOf('0 9 * * *', 1_000, 'Mars/Base')).toEqual([
      "timezone: unknown time zone 'Mars/Base'; use an IANA name such as UTC or Asia/Shanghai",
    ]);
  });
});

describe('nextDue', () => {
  it('reads the expression in the task time zone, daylight saving included', () => {
    expect(nextDue({ expr: '0 9 * * *', timezone: 'Asia/Shanghai' }, NOW)?.toISOString()).toBe(
      '2026-11-22T01:00:00.000Z',
    );
    const ny = { expr: '0 9 * * *', timezone: 'America/New_York' };
    expect(nextDue(ny, new Date('2027-03-12T00:00:00Z'))?.toISOString()).toBe('2027-03-12T14:00:00.000Z');
    expect(nextDue(ny, new Date('2027-03-15T00:00:00Z'))?.toISOString()).toBe('2027-03-15T13:00:00.000Z');
  });

  it('is strictly after the given time', () => {
    expect(nextDue({ expr: '* * * * * *', timezone: 'UTC' }, NOW)?.toISOString()).toBe(
      '2026-11-22T00:00:01.000Z',
    );
  });
});

describe('dueTimesBetween', () => {
  const everySecond = { expr: '* * * * * *', timezone: 'UTC' };
  const at = (s: number) => new Date(NOW.getTime() + s * 1_000);

  it('lists due times from `from` (included) to `to` (excluded), oldest first', () => {
    expect(dueTimesBetween(everySecond, at(0), at(3))).toEqual({
      times: [at(0), at(1), at(2)],
      truncated: false,
    });
    expect(dueTimesBetween(everySecond, at(3), at(3))).toEqual({ times: [], truncated: false });
  });

  it('keeps the newest `cap` and says the rest were left out', () => {
    expect(dueTimesBetween(everySecond, at(0), at(10), 3)).toEqual({
      times: [at(7), at(8), at(9)],
      truncated: true,
    });
  });
});

describe('formatMs', () => {
  it('picks the largest whole unit', () => {
    expect([formatMs(7_200_000), formatMs(120_000), formatMs(10_000), formatMs(1_500)]).toEqual([
      '2 h',
      '2 min',
      '10 s',
      '1500 ms',
    ]);
  });
});
