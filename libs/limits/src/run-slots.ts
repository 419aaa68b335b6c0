import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** How long a slot lives without renewal: a gateway that dies frees its keys' slots this fast. */
export const SLOT_LEASE_MS = 15_000;
/** Each live slot is renewed this often, all of a gateway's slots in one pipeline. */
export const SLOT_RENEW_MS = 5_000;

export const QUOTA_USED_UP = -1;
export const TOO_MANY_RUNS = -2;
export const BUDGET_SPENT = -3;

/** The day's counters of one key: its tokens and, when it has a budget, its spend in USD. */
export interface DayLimits {
  quotaKey: string;
  quota: number;
  costKey: string;
  /** USD; no limit when absent. */
  budget?: number;
}

// A key's slots are a sorted set of holders scored by when their lease ends (Redis's own clock, so
// gateways with skewed clocks agree). Expired holders are dropped before counting; a refused
// attempt writes nothing, so it can never extend anyone's slot.

/** KEYS: quota, slots, spend. ARGV: quota, max runs, lease (ms), holder, budget (USD; negative: none). */
const ADMIT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return ${QUOTA_USED_UP} end
if tonumber(ARGV[5]) >= 0 and tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[5]) then return ${BUDGET_SPENT} end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return ${TOO_MANY_RUNS} end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * A request's rate-limit hit, then (unless that is over the limit) ADMIT, in one round trip.
 * KEYS: ADMIT's, then the rate window's counter. ARGV: ADMIT's, then the counter's TTL (ms) and the
 * limit. Answers the window's count and ADMIT's answer (0 when over the rate limit: nothing else written).
 */
const HIT_AND_ADMIT = `
local count = redis.call('INCR', KEYS[4])
if count == 1 then redis.call('PEXPIRE', KEYS[4], ARGV[6]) end
if count > tonumber(ARGV[7]) then return {count, 0} end
return {count, (function() ${ADMIT} end)()}`;

/** KEYS: slots. ARGV: lease (ms), holder. A live run keeps (or regains) its slot. */
const RENEW = `
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/** Adds tokens and USD to a key's day counters, each kept `ttl` ms from its last change. */
const CHARGE_FUNCTION = `
local function charge(quota, spend, tokens, ttl, usd)
  if tonumber(tokens) > 0 then
    redis.call('INCRBY', quota, tokens)
    redis.call('PEXPIRE', quota, ttl)
  end
  if tonumber(usd) > 0 then
    redis.call('INCRBYFLOAT', spend, usd)
    redis.call('PEXPIRE', spend, ttl)
  end
end`;

/** KEYS: slots, quota, spend. ARGV: holder, tokens used, TTL (ms), USD spent. One round trip to end a turn. */
const RELEASE = `${CHARGE_FUNCTION}
redis.call('ZREM', KEYS[1], ARGV[1])
charge(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return 0`;

/** KEYS: quota, spend. ARGV: tokens used, TTL (ms), USD spent. Usage that held no run slot. */
const CHARGE = `${CHARGE_FUNCTION}
charge(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 0`;

type Scripted = Redis & {
  acAdmitRun(
    quota: string,
    slots: string,
    spend: string,
    limit: number,
    maxRuns: number,
    leaseMs: number,
    holder: string,
    budget: number,
  ): Promise<number>;
  acHitAndAdmitRun(
    quota: string,
    slots: string,
    spend: string,
    counter: string,
    limit: number,
    maxRuns: number,
    leaseMs: number,
    holder: string,
    budget: number,
    counterTtlMs: number,
    rateLimit: number,
  ): Promise<[number, number]>;
  acRenewRun(slots: string, leaseMs: number, holder: string): Promise<number>;
  acReleaseRun(
    slots: string,
    quota: string,
    spend: string,
    holder: string,
    tokens: number,
    ttlMs: number,
    usd: number,
  ): Promise<number>;
  acChargeUsage(quota: string, spend: string, tokens: number, ttlMs: number, usd: number): Promise<number>;
};

/** A key's counter in the current rate-limit window, kept `ttlMs`; at most `limit` hits. */
export interface RateWindow {
  counter: string;
  ttlMs: number;
  limit: number;
}

export interface Slot {
  slots: string;
  holder: string;
}

/**
 * The concurrent-run slots of API keys, as leases in Redis: held while a run is live, renewed by
 * the gateway that holds them, released when the run ends, and lapsing within `SLOT_LEASE_MS` when
 * their gateway stops renewing (a crash, a lost connection).
 */
export class RunSlots {
  private readonly redis: Scripted;
  private readonly held = new Set<Slot>();
  /** Releases not sent yet: see `release`. */
  private readonly releasing: (() => void)[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    redis: Redis,
    private readonly onRenewFailure: (err: Error) => void,
    private readonly leaseMs = SLOT_LEASE_MS,
    private readonly renewMs = SLOT_RENEW_MS,
  ) {
    redis.defineCommand('acAdmitRun', { numberOfKeys: 3, lua: ADMIT });
    redis.defineCommand('acHitAndAdmitRun', { numberOfKeys: 4, lua: HIT_AND_ADMIT });
    redis.defineCommand('acRenewRun', { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand('acReleaseRun', { numberOfKeys: 3, lua: RELEASE });
    redis.defineCommand('acChargeUsage', { numberOfKeys: 2, lua: CHARGE });
    this.redis = redis as Scripted;
  }

  /** A new slot of `slots`, or QUOTA_USED_UP / BUDGET_SPENT / TOO_MANY_RUNS. */
  async admit(day: DayLimits, slots: string, maxRuns: number): Promise<Slot | number> {
    const holder = randomUUID();
    const { quotaKey, costKey, quota } = day;
    const budget = day.budget ?? -1;
    this.sendReleases();
    const admitted = await this.redis.acAdmitRun(
      quotaKey,
      slots,
      costKey,
      quota,
      maxRuns,
      this.leaseMs,
      holder,
      budget,
    );
    return this.hold(admitted, slots, holder);
  }

  /**
   * A request's hit in its rate window and, unless that makes it over the limit (`admitted` 0 then),
   * `admit`'s answer: one round trip for both.
   */
  async hitAndAdmit(
    rate: RateWindow,
    day: DayLimits,
    slots: string,
    maxRuns: number,
  ): Promise<{ count: number; admitted: Slot | number }> {
    const holder = randomUUID();
    const { quotaKey, costKey, quota } = day;
    const budget = day.budget ?? -1;
    this.sendReleases();
    const [count, admitted] = await this.redis.acHitAndAdmitRun(
      quotaKey,
      slots,
      costKey,
      rate.counter,
      quota,
      maxRuns,
      this.leaseMs,
      holder,
      budget,
      rate.ttlMs,
      rate.limit,
    );
    return { count, admitted: count > rate.limit ? 0 : this.hold(admitted, slots, holder) };
  }

  private hold(admitted: number, slots: string, holder: string): Slot | number {
    if (admitted < 0) return admitted;
    const slot = { slots, holder };
    this.held.add(slot);
    this.timer ??= setInterval(() => this.renewAll(), this.renewMs).unref();
    return slot;
  }

  /**
   * Frees the slot and adds the turn's tokens and USD to the day's counters (kept `ttlMs`). Sent
   * once the event loop's current work is done, so that the turn's answer is written first (the
   * command's write wakes Redis, a cost the caller need not wait for), or before this gateway's next
   * admission, whichever comes first: commands go out in order on the connection, so an admission
   * asked after a release always sees the slot free.
   */
  release(
    slot: Slot,
    day: DayLimits,
    spent: { tokens: number; usd: number },
    ttlMs: number,
  ): Promise<number> {
    this.held.delete(slot);
    if (this.held.size === 0) this.stopRenewing();
    const send = () =>
      this.redis.acReleaseRun(
        slot.slots,
        day.quotaKey,
        day.costKey,
        slot.holder,
        spent.tokens,
        ttlMs,
        spent.usd,
      );
    return new Promise((resolve, reject) => {
      this.releasing.push(() => send().then(resolve, reject));
      if (this.releasing.length === 1) setImmediate(() => this.sendReleases());
    });
  }

  /** Adds tokens and USD that no run slot held (kept `ttlMs`) to the day's counters. */
  charge(day: DayLimits, spent: { tokens: number; usd: number }, ttlMs: number): Promise<number> {
    this.sendReleases();
    return this.redis.acChargeUsage(day.quotaKey, day.costKey, spent.tokens, ttlMs, spent.usd);
  }

  private sendReleases(): void {
    for (const send of this.releasing.splice(0)) send();
  }

  /** Stops renewing without releasing: what a gateway that dies leaves behind. */
  stopRenewing(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private renewAll(): void {
    const pipeline = this.redis.pipeline() as unknown as Scripted & { exec(): Promise<unknown> };
    for (const slot of this.held) pipeline.acRenewRun(slot.slots, this.leaseMs, slot.holder);
    pipeline.exec().catch((err: unknown) => this.onRenewFailure(err as Error));
  }
}
