/**
 * How the waits between attempts grow: from `firstMs`, doubling (or times `factor`), up to `maxMs`;
 * each wait plus a random part below `jitterMs`, so that several callers that failed together do not
 * all ask again in the same millisecond (e.g. processes contending for one SQLite file).
 */
export interface BackoffPolicy {
  firstMs: number;
  maxMs: number;
  factor?: number;
  jitterMs?: number;
}

/**
 * The waits of one series of attempts — 0.1 s, 0.2 s, 0.4 s … up to the policy's most — and
 * `reset` once an attempt succeeded, so the next series starts short again.
 */
export class Backoff {
  private upcoming: number;
  private waited = 0;

  constructor(readonly policy: BackoffPolicy) {
    this.upcoming = policy.firstMs;
  }

  /** The wait before the next attempt; each call moves one step along the series. */
  next(): number {
    const wait = this.upcoming + (this.policy.jitterMs ? Math.random() * this.policy.jitterMs : 0);
    this.upcoming = Math.min(this.upcoming * (this.policy.factor ?? 2), this.policy.maxMs);
    this.waited += 1;
    return wait;
  }

  /** How many waits were handed out since the series began (0: the first attempt has not failed). */
  get retries(): number {
    return this.waited;
  }

  reset(): void {
    this.upcoming = this.policy.firstMs;
    this.waited = 0;
  }
}

/** Resolves after `ms` (at least 0). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
