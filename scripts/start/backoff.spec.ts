import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.mjs';

describe('the restart backoff', () => {
  it('doubles from 0.5 s to at most 10 s', () => {
    const backoff = new Backoff();
    expect([1, 2, 3, 4, 5, 6, 7].map(() => backoff.onExit(20_000))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });

  it('starts again at 0.5 s after a minute up', () => {
    const backoff = new Backoff();
    backoff.onExit(1_000);
    backoff.onExit(1_000);
    expect(backoff.onExit(60_000)).toBe(500);
    expect(backoff.onExit(1_000)).toBe(1_000);
  });

  it('calls it a crash loop once, at the third exit in a row within 5 s of starting', () => {
    const backoff = new Backoff();
    const looping = [100, 100, 100, 100, 30_000, 100].map((uptime) => {
      backoff.onExit(uptime);
      return backoff.justStartedLooping;
    });
    expect(looping).toEqual([false, false, true, false, false, false]);
  });
});
