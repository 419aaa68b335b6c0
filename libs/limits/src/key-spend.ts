import type { Redis } from 'ioredis';
import { DAY_COUNTER_TTL_MS, spendKeyOf } from './key-day';

/**
 * KEYS: the key's spend today. ARGV: USD to hold, the budget, TTL (ms). Holds the USD when the day's
 * spend and it fit in the budget (1), else writes nothing (0): check and hold are one step, so
 * concurrent runs on any number of executors can never hold past the budget between them.
 */
const RESERVE = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if spent + tonumber(ARGV[1]) > tonumber(ARGV[2]) + 1e-12 then return 0 end
redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS: the key's spend on the hold's day. ARGV: what the call cost less what was held, TTL (ms). */
const SETTLE = `
redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0`;

type Scripted = Redis & {
  acReserveSpend(spend: string, usd: number, budget: number, ttlMs: number): Promise<number>;
  acSettleSpend(spend: string, delta: number, ttlMs: number): Promise<number>;
};

/** USD held for one model call: settled once, at what the call cost. */
export interface SpendReservation {
  readonly usd: number;
  settle(cost: number): void;
}

/**
 * An API key's daily USD budget, drawn on call by call: each model call of the key's runs holds
 * its worst case in the key's day (the counter the gateway's admission reads) before it is sent,
 * and settles at what it cost; the spend can never pass the budget, whatever the concurrency. A
 * settle that cannot be sent leaves the hold in place (the day counts the worst case).
 */
export class KeySpend {
  private redis?: Promise<Scripted>;

  constructor(
    private readonly connect: () => Promise<Redis>,
    private readonly onSettleFailure: (err: Error) => void,
  ) {}

  /** Holds `usd` of `keyId`'s day; undefined when the day's spend and it would pass `budget`. */
  async reserve(
    keyId: string,
    budget: number,
    usd: number,
    now = Date.now(),
  ): Promise<SpendReservation | undefined> {
    const redis = await this.connection();
    const spend = spendKeyOf(keyId, now);
    if ((await redis.acReserveSpend(spend, usd, budget, DAY_COUNTER_TTL_MS)) !== 1) return undefined;
    let settled = false;
    return {
      usd,
      settle: (cost) => {
        if (settled) return;
        settled = true;
        if (cost === usd) return;
        redis
          .acSettleSpend(spend, cost - usd, DAY_COUNTER_TTL_MS)
          .catch((err: unknown) => this.onSettleFailure(err as Error));
      },
    };
  }

  /** The key's spend today, in USD (0 when nothing was spent). */
  async spentToday(keyId: string, now = Date.now()): Promise<number> {
    return Number((await (await this.connection()).get(spendKeyOf(keyId, now))) ?? 0);
  }

  private connection(): Promise<Scripted> {
    this.redis ??= this.connect().then((redis) => {
      redis.defineCommand('acReserveSpend', { numberOfKeys: 1, lua: RESERVE });
      redis.defineCommand('acSettleSpend', { numberOfKeys: 1, lua: SETTLE });
      return redis as Scripted;
    });
    return this.redis;
  }
}
