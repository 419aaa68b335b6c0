import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlatformConfig } from '@app/config';
import { AppError } from '@app/contracts';
import type { Logger } from '@app/observability';
import { expectEventually } from '@app/testing';
import { RunSlots, TOO_MANY_RUNS } from './run-slots';
import { UsageLimits } from './usage-limits.service';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const config = { security: { max_concurrent_runs: 1, daily_token_quota: 100 } } as PlatformConfig;
const limits = new UsageLimits(redis, config, { warn: () => undefined } as unknown as Logger);
const usage = (prompt_tokens: number, completion_tokens = 0) => ({
  usage: { prompt_tokens, completion_tokens },
});

afterAll(() => redis.quit());

describe('UsageLimits (real Redis)', () => {
  it('charges each turn to the daily quota and refuses the next once it is used up', async () => {
    const key = `quota-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 23, 0, 0);
    await limits.withinLimits(key, async () => usage(60, 30), { now });
    await limits.withinLimits(key, async () => usage(20), { now });
    const refused = await limits.withinLimits(key, async () => usage(1), { now }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('rate_limited');
    expect((refused as AppError).details).toEqual({ retry_after_s: 3_600 });
    await expect(limits.withinLimits(key, async () => usage(1), { now: now + 3_600_000 })).resolves.toEqual(
      usage(1),
    );
  });

  it('refuses a second concurrent run and frees the slot when the first ends, even on failure', async () => {
    const key = `slots-${Date.now()}`;
    let release!: () => void;
    const first = limits.withinLimits(
      key,
      () => new Promise<{ usage?: undefined }>((r) => (release = () => r({}))),
    );
    await expect(limits.withinLimits(key, async () => ({}))).rejects.toMatchObject({ code: 'rate_limited' });
    release();
    await first;
    await expect(limits.withinLimits(key, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(limits.withinLimits(key, async () => ({}))).resolves.toEqual({});
  });

  it('frees the slot when the caller goes away while its run goes on, and charges the run at its end', async () => {
    const key = `gone-${Date.now()}`;
    const caller = new AbortController();
    let finish!: () => void;
    const running = limits.withinLimits(
      key,
      () =>
        new Promise<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
          (r) => (finish = () => r(usage(7))),
        ),
      { signal: caller.signal },
    );
    await expect(limits.withinLimits(key, async () => ({}))).rejects.toMatchObject({ code: 'rate_limited' });
    caller.abort();
    await expect(limits.withinLimits(key, async () => ({}))).resolves.toEqual({});
    finish();
    await running;
    await expectEventually(async () => {
      const day = new Date().toISOString().slice(0, 10);
      expect(await redis.get(`ac:tokens:${key}:${day}`)).toBe('7');
    });
  });

  it("frees a dead gateway's slot once its lease lapses, however often the key is refused meanwhile", async () => {
    const slots = `lease-${Date.now()}`;
    const crashed = new RunSlots(redis, () => undefined, 400, 100);
    const other = new RunSlots(redis, () => undefined, 400, 100);
    const held = await crashed.admit('ac:tokens:none', slots, 100, 1);
    expect(held).toMatchObject({ slots });
    crashed.stopRenewing();
    const started = Date.now();
    let refusals = 0;
    await expectEventually(
      async () => {
        const attempt = await other.admit('ac:tokens:none', slots, 100, 1);
        if (attempt === TOO_MANY_RUNS) refusals++;
        expect(attempt).not.toBe(TOO_MANY_RUNS);
      },
      { timeoutMs: 5_000 },
    );
    expect(refusals).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    other.stopRenewing();
  });

  it("keeps a live run's slot past its lease by renewing it", async () => {
    const slots = `renewed-${Date.now()}`;
    const live = new RunSlots(redis, () => undefined, 300, 100);
    const other = new RunSlots(redis, () => undefined, 300, 100);
    const held = await live.admit('ac:tokens:none', slots, 100, 1);
    const until = Date.now() + 1_200;
    while (Date.now() < until) {
      expect(await other.admit('ac:tokens:none', slots, 100, 1)).toBe(TOO_MANY_RUNS);
      await new Promise((r) => setTimeout(r, 100));
    }
    await live.release(held as Exclude<typeof held, number>, 'ac:tokens:none', 0, 1_000);
    expect(await other.admit('ac:tokens:none', slots, 100, 1)).toMatchObject({ slots });
    other.stopRenewing();
  });

  it('answers unavailable (503), not an internal error, when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
    });
    try {
      const offline = new UsageLimits(down, config, { warn: () => undefined } as unknown as Logger);
      const refused = await offline.withinLimits('k', async () => ({})).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/Redis is unreachable/),
      });
    } finally {
      down.disconnect();
    }
  });
});
