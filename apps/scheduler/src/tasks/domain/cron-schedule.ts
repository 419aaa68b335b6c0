import { CronExpressionParser } from 'cron-parser';
import { type FieldError, isTimeZone, TIME_ZONE_RULE } from '@app/contracts';

/** Lost ticks recorded one by one at most; beyond this the oldest recorded one says so. */
export const MISSED_TICKS_CAP = 1_000;
/** Due times sampled to find an expression's shortest interval. */
const INTERVAL_SAMPLES = 48;
/** `H` (a hashed, random value) would make every parse pick another time: refused. */
const HASHED_FIELD = /(^|[\s,])H(?=$|[\s,(/])/i;

export interface CronSpec {
  expr: string;
  timezone: string;
}

export function normaliseCron(expr: string): string {
  return expr.trim().split(/\s+/).join(' ');
}

/** What is wrong with an expression, phrased for whoever wrote it (often a model). */
export function cronProblems(spec: CronSpec, minIntervalMs: number, now: Date): FieldError[] {
  if (!isTimeZone(spec.timezone)) {
    return [
      {
        field: 'timezone',
        message: `unknown time zone '${spec.timezone}'; ${TIME_ZONE_RULE}`,
      },
    ];
  }
  const fields = normaliseCron(spec.expr).split(' ');
  if (fields.length !== 5 && fields.length !== 6) {
    return [
      problem(
        `must have 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; got ${fields.length}. Example: '0 9 * * *' is 09:00 every day`,
      ),
    ];
  }
  if (HASHED_FIELD.test(spec.expr))
    return [problem("must not use 'H' (random values); write the minute or hour you want")];
  let times: Date[];
  try {
    times = upcoming(spec, now, INTERVAL_SAMPLES);
  } catch (err) {
    return [problem(`is not a valid cron expression: ${(err as Error).message}`)];
  }
  if (times.length === 0) return [problem('never fires')];
  const shortest = shortestGap(times);
  if (shortest < minIntervalMs) {
    return [
      problem(
        `fires every ${formatMs(shortest)}, more often than the shortest interval allowed (${formatMs(minIntervalMs)})`,
      ),
    ];
  }
  return [];
}

/** The first due time strictly after `after`, or undefined when there is none. */
export function nextDue(spec: CronSpec, after: Date): Date | undefined {
  return upcoming(spec, after, 1)[0];
}

/**
 * Due times in [from, to), newest first collected, returned oldest first. At most `cap`: when there
 * are more, `truncated` says so and the oldest ones are the ones left out.
 */
export function dueTimesBetween(
  spec: CronSpec,
  from: Date,
  to: Date,
  cap = MISSED_TICKS_CAP,
): { times: Date[]; truncated: boolean } {
  const times: Date[] = [];
  if (to <= from) return { times, truncated: false };
  const iterator = CronExpressionParser.parse(spec.expr, { tz: spec.timezone, currentDate: to });
  for (;;) {
    const time = step(() => iterator.prev().toDate());
    if (!time || time < from) return { times: times.reverse(), truncated: false };
    if (times.length === cap) return { times: times.reverse(), truncated: true };
    times.push(time);
  }
}

function upcoming(spec: CronSpec, after: Date, count: number): Date[] {
  const iterator = CronExpressionParser.parse(spec.expr, { tz: spec.timezone, currentDate: after });
  const times: Date[] = [];
  while (times.length < count) {
    const time = step(() => iterator.next().toDate());
    if (!time) break;
    times.push(time);
  }
  return times;
}

/** cron-parser throws at the end of an expression's range; that is "no more times" here. */
function step(move: () => Date): Date | undefined {
  try {
    return move();
  } catch (err) {
    if (/time span|loop limit/i.test((err as Error).message)) return undefined;
    throw err;
  }
}

function shortestGap(times: Date[]): number {
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++)
    shortest = Math.min(shortest, times[i].getTime() - times[i - 1].getTime());
  return shortest;
}

function problem(message: string): FieldError {
  return { field: 'cron_expr', message };
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'never';
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0 && ms > 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}
