import { describe, expect, it } from 'vitest';
import {
  CreateCronBody,
  CreateDelayBody,
  InvalidParamsError,
  isoInstant,
  isTimeZone,
  parseDto,
} from '@app/contracts';

const fieldsOf = (work: () => unknown): string[] => {
  try {
    work();
  } catch (err) {
    if (err instanceof InvalidParamsError) return err.fields.map((f) => `${f.field}: ${f.message}`);
    throw err;
  }
  return [];
};

describe('the one date reader', () => {
  it('reads an instant as written, in any offset', () => {
    expect(isoInstant('2026-12-25T09:00:00+08:00')?.toISOString()).toBe('2026-12-25T01:00:00.000Z');
    expect(isoInstant('2028-02-29T23:59:59.5Z')?.toISOString()).toBe('2028-02-29T23:59:59.500Z');
    expect(isoInstant('2026-12-25T09:00-0530')?.toISOString()).toBe('2026-12-25T14:30:00.000Z');
  });

  it.each([
    '2027-02-30T09:00:00Z', // no 30 February: never read as 2 March
    '2027-02-29T09:00:00Z', // not a leap year
    '2026-04-31T09:00:00Z',
    '2026-13-01T09:00:00Z',
    '2026-00-10T09:00:00Z',
    '2026-12-00T09:00:00Z',
    '2026-12-25T24:00:00Z', // not the next day's midnight
    '2026-12-25T09:60:00Z',
    '2026-12-25T09:00:60Z',
    '2026-12-25T09:00:00+24:00',
    '2026-12-25T09:00:00+05:60',
    '2026-12-25T09:00:00', // no offset: which instant is unknown
    'tomorrow',
  ])('refuses %s rather than shift it', (written) => {
    expect(isoInstant(written)).toBeUndefined();
  });

  it('takes IANA time zones as spelt, and refuses an offset, a misspelling or another case', () => {
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Etc/GMT+5'])
      expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['+05:00', 'Mars/Base', 'asia/shanghai', 'utc', ''])
      expect(isTimeZone(zone)).toBe(false);
  });

  it('a delay or a cron with an impossible date is refused, naming the field', () => {
    const delay = { name: 'feb', run_at: '2027-02-30T09:00:00Z', function: 'send_message' };
    expect(fieldsOf(() => parseDto(CreateDelayBody, delay))).toEqual([
      expect.stringMatching(/^run_at: .*no 30 February 2027/),
    ]);
    const cron = {
      name: 'c',
      cron_expr: '0 9 * * *',
      function: 'send_message',
      until: '2027-04-31T00:00:00Z',
    };
    expect(fieldsOf(() => parseDto(CreateCronBody, cron))).toEqual([
      expect.stringMatching(/^until: .*no 31 April 2027/),
    ]);
  });
});
