import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlatformConfig } from '@app/config';
import { AppError } from '@app/contracts';
import type { Logger } from '@app/observability';
import { expectEventually } from '@app/testing';
import { RunSlots, TOO_MANY_RUNS } from './run-slots';
import { UsageLimits } from './usage-limits.service';
import { KeySpend } from './key-spend';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const config = { security: { max_concurrent_runs: 1, daily_token_quota: 100 } } as PlatformConfig;
const limits = new UsageLimits(redis, config, { warn: () => undefined } as unknown as Logger);
const usage = (prompt_tokens: number, completion_tokens = 0) => ({
  usage: { prompt_tokens, completion_tokens },
});

const spend = new KeySpend(
  async () => redis,
  (err) => {
    throw err;
  },
);
const priced = (cost_usd: number) => ({ usage: { prompt_tokens: 1, completion_tokens: 1, cost_usd } });

const NO_DAY = { quotaKey: 'ac:tokens:none', quota: 100, costKey: 'ac:cost:none' };

afterAll(() => redis.quit());

describe('UsageLimits (real Redis)', () => {
  it('charges each turn to the daily quota and refuses the next once it is used up', async () => {
    const key = `quota-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 23, 0, 0);
    await limits.withinLimits({ keyId: key }, async () => usage(60, 30), { now });
    await limits.withinLimits({ keyId: key }, async () => usage(20), { now });
    const refused = await limits
      .withinLimits({ keyId: key }, async () => usage(1), { now })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('rate_limited');
    expect((refused as AppError).details).toEqual({ retry_after_s: 3_600 });
    await expect(
      limits.withinLimits({ keyId: key }, async () => usage(1), { now: now + 3_600_000 }),
    ).resolves.toEqual(usage(1));
  });

  it('charges usage that held no run slot (a routing question) to the same day: the next turn is refused', async () => {
    const keyId = `charged-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 21, 0, 0);
    limits.charge(
      { keyId, dailyCostBudgetUsd: 1 },
      { prompt_tokens: 90, completion_tokens: 10, cost_usd: 0.4 },
      now,
    );
    await expectEventually(async () => {
      expect(await redis.get(`ac:tokens:${keyId}:2026-11-22`)).toBe('100');
      expect(await redis.get(`ac:cost:${keyId}:2026-11-22`)).toBe('0.4');
    });
    expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(0);
    const refused = await limits
      .withinLimits({ keyId }, async () => usage(1), { now })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('token quota') });
  });

  it("refuses a key's next run once its model calls have spent the day's budget", async () => {
    const keyId = `budget-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 22, 0, 0);
    const own = { keyId, dailyCostBudgetUsd: 0.5 };
    // each model call of a budgeted key's run holds and settles its cost in the key's day (KeySpend)
    const call = async (cost: number) => (await spend.reserve(keyId, 0.5, cost, now))?.settle(cost);
    await limits.withinLimits(own, async () => (await call(0.3), priced(0.3)), { now });
    await limits.withinLimits(own, async () => (await call(0.2), priced(0.2)), { now });
    // the turns' own costs are not counted again at their end
    await expectEventually(async () =>
      expect(Number(await redis.get(`ac:cost:${keyId}:2026-11-22`))).toBeCloseTo(0.5, 9),
    );
    // a call that would pass the budget is held back before it is sent
    expect(await spend.reserve(keyId, 0.5, 0.01, now)).toBeUndefined();
    const refused = await limits.withinLimits(own, async () => priced(0), { now }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'budget_exceeded',
      message: expect.stringContaining('daily cost budget of 0.5 USD'),
      details: { retry_after_s: 7_200 },
    });
    // A larger budget (the key's own wins over the platform's default) admits it again; so does the next day.
    await expect(
      limits.withinLimits({ keyId, dailyCostBudgetUsd: 1 }, async () => ({}), { now }),
    ).resolves.toEqual({});
    await expect(limits.withinLimits(own, async () => ({}), { now: now + 7_200_000 })).resolves.toEqual({});
  });

  it("counts a turn's cost at its end when the key has no budget (nothing held it call by call)", async () => {
    const keyId = `unbudgeted-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 22, 0, 0);
    await limits.withinLimits({ keyId }, async () => priced(0.3), { now });
    await expectEventually(async () => expect(await redis.get(`ac:cost:${keyId}:2026-11-22`)).toBe('0.3'));
  });

  it('applies the platform default budget to a key without its own, and none when neither is set', async () => {
    const keyId = `default-budget-${Date.now()}`;
    const budgeted = new UsageLimits(
      redis,
      { security: { ...config.security, daily_cost_budget_usd: 0.1 } } as PlatformConfig,
      { warn: () => undefined } as unknown as Logger,
    );
    (await spend.reserve(keyId, 0.1, 0.1))?.settle(0.1);
    await expect(
      budgeted.withinLimits({ keyId }, async () => ({})).catch((e: unknown) => e),
    ).resolves.toMatchObject({
      code: 'budget_exceeded',
    });
    await expect(limits.withinLimits({ keyId }, async () => ({}))).resolves.toEqual({});
  });

  it('refuses a second concurrent run and frees the slot when the first ends, even on failure', async () => {
    const key = `slots-${Date.now()}`;
    let release!: () => void;
    const first = limits.withinLimits(
      { keyId: key },
      () => new Promise<{ usage?: undefined }>((r) => (release = () => r({}))),
    );
    await expect(limits.withinLimits({ keyId: key }, async () => ({}))).rejects.toMatchObject({
      code: 'rate_limited',
    });
    release();
    await first;
    await expect(
      limits.withinLimits({ keyId: key }, async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(limits.withinLimits({ keyId: key }, async () => ({}))).resolves.toEqual({});
  });

  it('sends a slot’s release after the turn’s answer, on its own: no later admission is needed to free it', async () => {
    const keyId = `released-${Date.now()}`;
    const now = Date.UTC(2026, 10, 22, 20, 0, 0);
    let inTurn = -1;
    await limits.withinLimits(
      { keyId },
      async () => {
        inTurn = await redis.zcard(`ac:slots:${keyId}`);
        return usage(3, 4);
      },
      { now },
    );
    expect(inTurn).toBe(1);
    await expectEventually(async () => {
      expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(0);
      expect(await redis.get(`ac:tokens:${keyId}:2026-11-22`)).toBe('7');
    });
  });

  it('frees the slot when the caller goes away while its run goes on, and charges the run at its end', async () => {
    const key = `gone-${Date.now()}`;
    const caller = new AbortController();
    let finish!: () => void;
    const running = limits.withinLimits(
      { keyId: key },
      () =>
        new Promise<{ usage: { prompt_tokens: number; completion_tokens: number } }>(
          (r) => (finish = () => r(usage(7))),
        ),
      { signal: caller.signal },
    );
    await expect(limits.withinLimits({ keyId: key }, async () => ({}))).rejects.toMatchObject({
      code: 'rate_limited',
    });
    caller.abort();
    await expect(limits.withinLimits({ keyId: key }, async () => ({}))).resolves.toEqual({});
    finish();
    await running;
    await expectEventually(async () => {
      const day = new Date().toISOString().slice(0, 10);
      expect(await redis.get(`ac:tokens:${key}:${day}`)).toBe('7');
    });
  });

  it('counts the rate-limit hit and admits the run in one call, the refusals kept for the turn', async () => {
    const keyId = `ahead-${Date.now()}`;
    const rate = { counter: `ac:ratelimit:${keyId}:0`, ttlMs: 60_000, limit: 2 };
    const first = await limits.admitAhead({ keyId }, rate);
    expect(first.count).toBe(1);
    // the slot is the one admitted ahead: a second run is refused when its turn asks for a slot
    const second = await limits.admitAhead({ keyId }, rate);
    expect(second.count).toBe(2);
    let finish!: () => void;
    const running = limits.withinLimits(
      { keyId, admittedAhead: first.ahead },
      () => new Promise<object>((r) => (finish = () => r({}))),
    );
    await expect(
      limits.withinLimits({ keyId, admittedAhead: second.ahead }, async () => ({})),
    ).rejects.toMatchObject({
      code: 'rate_limited',
      message: 'at most 1 concurrent runs per API key',
      details: { retry_after_s: 1 },
    });
    finish();
    await running;
    // over the rate limit: counted, and no slot taken
    const over = await limits.admitAhead({ keyId }, rate);
    expect(over.count).toBe(3);
    expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(0);
    // a slot admitted ahead that no turn took is freed
    const unused = await limits.admitAhead({ keyId }, { ...rate, limit: 10 });
    expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(1);
    unused.ahead.dropUnused();
    await expectEventually(async () => expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(0));
  });

  it("frees a dead gateway's slot once its lease lapses, however often the key is refused meanwhile", async () => {
    const slots = `lease-${Date.now()}`;
    const crashed = new RunSlots(redis, () => undefined, 400, 100);
    const other = new RunSlots(redis, () => undefined, 400, 100);
    const held = await crashed.admit(NO_DAY, slots, 1);
    expect(held).toMatchObject({ slots });
    crashed.stopRenewing();
    const started = Date.now();
    let refusals = 0;
    await expectEventually(
      async () => {
        const attempt = await other.admit(NO_DAY, slots, 1);
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
    const held = await live.admit(NO_DAY, slots, 1);
    const until = Date.now() + 1_200;
    while (Date.now() < until) {
      expect(await other.admit(NO_DAY, slots, 1)).toBe(TOO_MANY_RUNS);
      await new Promise((r) => setTimeout(r, 100));
    }
    await live.release(held as Exclude<typeof held, number>, NO_DAY, { tokens: 0, usd: 0 }, 1_000);
    expect(await other.admit(NO_DAY, slots, 1)).toMatchObject({ slots });
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
      const refused = await offline.withinLimits({ keyId: 'k' }, async () => ({})).catch((e: unknown) => e);
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
