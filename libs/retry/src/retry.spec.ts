import { describe, expect, it, vi } from 'vitest';
import { Backoff, retry } from './index';

describe('Backoff', () => {
  it('doubles from the first wait to the most, and starts over once reset', () => {
    const backoff = new Backoff({ firstMs: 100, maxMs: 2_000 });

    expect([1, 2, 3, 4, 5, 6, 7].map(() => backoff.next())).toEqual([
      100, 200, 400, 800, 1_600, 2_000, 2_000,
    ]);
    expect(backoff.retries).toBe(7);
    backoff.reset();
    expect([backoff.next(), backoff.retries]).toEqual([100, 1]);
  });
});

describe('Backoff with jitter', () => {
  it('adds a random part below the jitter to each wait of the series', () => {
    const backoff = new Backoff({ firstMs: 20, maxMs: 20, factor: 1, jitterMs: 80 });
    const waits = Array.from({ length: 200 }, () => backoff.next());

    expect(waits.every((wait) => wait >= 20 && wait < 100)).toBe(true);
    expect(new Set(waits.map(Math.floor)).size).toBeGreaterThan(10);
  });
});

describe('retry', () => {
  const policy = { firstMs: 1, maxMs: 4 };

  it('asks again after a failure it may retry, until the attempt succeeds', async () => {
    const attempt = vi.fn().mockRejectedValueOnce(new Error('nobody there')).mockResolvedValueOnce('ok');

    const result = await retry(attempt, { policy, retryable: () => true, deadline: Date.now() + 5_000 });

    expect(result).toBe('ok');
    expect(attempt).toHaveBeenCalledTimes(2);
  });

  it('throws at once a failure it may not retry', async () => {
    const attempt = vi.fn().mockRejectedValue(new Error('refused'));

    await expect(
      retry(attempt, { policy, retryable: () => false, deadline: Date.now() + 5_000 }),
    ).rejects.toThrow('refused');
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('gives up with the last failure when the next wait would end past the deadline', async () => {
    const attempt = vi.fn().mockRejectedValue(new Error('still nobody'));

    await expect(
      retry(attempt, {
        policy: { firstMs: 50, maxMs: 50 },
        retryable: () => true,
        deadline: Date.now() + 120,
      }),
    ).rejects.toThrow('still nobody');
    expect(attempt.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(attempt.mock.calls.length).toBeLessThanOrEqual(3);
  });
});
