// The one reader of the dates and time zones the platform is given (REST bodies, the scheduler's
// built-in functions, the CLI through them): each is checked as written, never shifted.
import { ValidateBy } from 'class-validator';

/** ISO 8601 date-time that states its offset (`Z` or `±hh:mm`), so it means one instant. */
export const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/i;
export const ISO_RULE = 'must be an ISO 8601 time with an offset, e.g. 2026-12-25T09:00:00+08:00';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Why `value` is not an instant as written, or undefined when it is one. `Date.parse` alone rolls
 * an impossible day over (30 February becomes 2 March) and reads 24:00 as the next day: each field
 * is checked first.
 */
export function isoProblem(value: unknown): string | undefined {
  const m = typeof value === 'string' ? ISO_WITH_OFFSET.exec(value) : null;
  if (!m) return ISO_RULE;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const [offsetHours, offsetMinutes] = [Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (month < 1 || month > 12) return `${ISO_RULE} (there is no month ${m[2]})`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return `${ISO_RULE} (there is no ${day} ${MONTHS[month - 1]} ${year})`;
  if (hour > 23 || minute > 59 || second > 59) return `${ISO_RULE} (the time of day is out of range)`;
  if (offsetHours > 23 || offsetMinutes > 59) return `${ISO_RULE} (the offset is out of range)`;
  return Number.isNaN(Date.parse(value as string)) ? ISO_RULE : undefined;
}

/** The instant an ISO 8601 time with an offset names; undefined for anything else. */
export function isoInstant(value: unknown): Date | undefined {
  return isoProblem(value) === undefined ? new Date(Date.parse(value as string)) : undefined;
}

/**
 * An IANA time zone, spelt as the database spells it: an offset (`+05:00`) or another case (`utc`,
 * which the platform's clock would read but its listings would show as written) is refused.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][\w+\-/]*$/.test(name)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

export const TIME_ZONE_RULE = 'use an IANA name such as UTC or Asia/Shanghai';

// No class-validator type in these signatures: the typed client ships the contracts' declarations
// without class-validator (its package would otherwise depend on it).
export function IsIsoWithOffset(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoWithOffset',
      validator: {
        validate: (value) => isoProblem(value) === undefined,
        defaultMessage: (args) => isoProblem(args?.value) ?? ISO_RULE,
      },
    },
    { context: { jsonSchema: { type: 'string', format: 'date-time' } } },
  );
}

export function IsTimeZone(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTimeZone',
      validator: {
        validate: (value) => typeof value === 'string' && isTimeZone(value),
        defaultMessage: (args) => `unknown time zone '${String(args?.value)}'; ${TIME_ZONE_RULE}`,
      },
    },
    { context: { description: 'an IANA time zone, e.g. UTC or Asia/Shanghai' } },
  );
}
