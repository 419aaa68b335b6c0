import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { KeySpend } from './key-spend';
import { spendKeyOf } from './key-day';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.quit());

const failures: Error[] = [];
// each test's own connections, as the executors of a deployment have theirs
const executor = () =>
  new KeySpend(
    async () => new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    (err) => failures.push(err),
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeySpend: a key budget drawn on call by call (real Redis)', () => {
  it("never lets the key's spend pass its cap, with 20 concurrent runs on 4 executors", async () => {
    const keyId = `cap-${Date.now()}`;
    const cap = 0.5;
    const worst = 0.01;
    const executors = [executor(), executor(), executor(), executor()];
    const spent = spendKeyOf(keyId, Date.now());
    let highest = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        highest = Math.max(highest, Number((await redis.get(spent)) ?? 0));
        await pause(1);
      }
    })();
    let billed = 0;
    let calls = 0;
    const run = async (n: number): Promise<string> => {
      const spend = executors[n % executors.length];
      for (;;) {
        const hold = await spend.reserve(keyId, cap, worst);
        if (!hold) return 'budget';
        calls += 1;
        await pause(Math.random() * 4);
        // a call costs at most its worst case, usually less
        const cost = Math.round((0.002 + Math.random() * 0.008) * 1e6) / 1e6;
        billed += cost;
        hold.settle(cost);
      }
    };
    const endings = await Promise.all(Array.from({ length: 20 }, (_, n) => run(n)));
    await pause(50);
    sampling = false;
    await sampler;
    expect(endings.every((ending) => ending === 'budget')).toBe(true);
    expect(calls).toBeGreaterThan(50);
    const total = Number(await redis.get(spent));
    expect(highest).toBeLessThanOrEqual(cap + 1e-9);
    expect(total).toBeLessThanOrEqual(cap + 1e-9);
    // settled: the day holds what the calls cost, not their worst cases
    expect(total).toBeCloseTo(billed, 9);
    // and it stopped within one call's worst case of the cap
    expect(total).toBeGreaterThan(cap - 2 * worst);
    expect(failures).toEqual([]);
  });

  it('refuses a call whose worst case alone passes what is left, and settles each hold once', async () => {
    const keyId = `left-${Date.now()}`;
    const spend = executor();
    const hold = await spend.reserve(keyId, 1, 0.75);
    expect(hold).toBeDefined();
    expect(await spend.reserve(keyId, 1, 0.3)).toBeUndefined();
    hold!.settle(0.5);
    hold!.settle(0);
    await pause(20);
    expect(await spend.spentToday(keyId)).toBeCloseTo(0.5, 9);
    expect(await spend.reserve(keyId, 1, 0.3)).toBeDefined();
  });
});
