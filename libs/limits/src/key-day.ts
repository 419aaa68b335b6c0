/** A key's counters live for two days past their last change: today's, and yesterday's late settles. */
export const DAY_COUNTER_TTL_MS = 2 * 86_400_000;

/** The UTC day `now` falls in, as the counters of a key's day are named by it. */
export function utcDay(now: number): string {
  // named once a day, not twice a request (each a Date and its ISO string)
  const day = Math.floor(now / DAY_MS);
  if (day !== named.day) named = { day, name: new Date(now).toISOString().slice(0, 10) };
  return named.name;
}

const DAY_MS = 86_400_000;
let named = { day: Number.NaN, name: '' };

/** The counter of a key's USD spend on the day `now` falls in (UTC). */
export function spendKeyOf(keyId: string, now: number): string {
  return `ac:cost:${keyId}:${utcDay(now)}`;
}

/** The counter of a key's tokens on the day `now` falls in (UTC). */
export function tokensKeyOf(keyId: string, now: number): string {
  return `ac:tokens:${keyId}:${utcDay(now)}`;
}
