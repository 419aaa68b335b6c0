import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PlatformConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { PLATFORM_CONFIG, REDIS } from '@app/runtime';
import { orUnavailable, type RateWindow } from '@app/limits';

const WINDOW_MS = 60_000;

/** KEYS: the window's counter. ARGV: its TTL (ms). The count so far, in one command. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type Scripted = Redis & { acRateHit(counter: string, ttlMs: number): Promise<number> };

/**
 * Per-key request rate limit with counters in Redis, so the limit holds across gateway replicas:
 * a fixed one-minute window (one script, one round trip).
 */
@Injectable()
export class RateLimiter {
  private readonly redis: Scripted;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    redis.defineCommand('acRateHit', { numberOfKeys: 1, lua: HIT });
    this.redis = redis as Scripted;
  }

  async hit(keyId: string, now = Date.now()): Promise<void> {
    const { counter, ttlMs } = this.window(keyId, now);
    const count = await orUnavailable(this.redis.acRateHit(counter, ttlMs), 'the rate limit');
    this.refuseOver(count, now);
  }

  /** The key's counter in the window of `now` (the limit's scripts in RunSlots take the hit with it). */
  window(keyId: string, now: number): RateWindow {
    const window = Math.floor(now / WINDOW_MS);
    return {
      counter: `ac:ratelimit:${keyId}:${window}`,
      ttlMs: WINDOW_MS + 1_000,
      limit: this.config.security.rate_limit_per_minute,
    };
  }

  /** Throws `rate_limited` when `count` hits in the window of `now` are over the limit. */
  refuseOver(count: number, now: number): void {
    const limit = this.config.security.rate_limit_per_minute;
    if (count > limit) {
      const window = Math.floor(now / WINDOW_MS);
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
      throw new AppError('rate_limited', `rate limit of ${limit} requests per minute exceeded`, {
        retry_after_s: retryAfter,
      });
    }
  }
}
