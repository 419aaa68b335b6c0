import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PlatformConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { PLATFORM_CONFIG, REDIS } from '@app/runtime';

const WINDOW_MS = 60_000;

/**
 * Per-key request rate limit with counters in Redis, so the limit holds across gateway replicas:
 * a fixed one-minute window (INCR + PEXPIRE in one round trip).
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async hit(keyId: string, now = Date.now()): Promise<void> {
    const window = Math.floor(now / WINDOW_MS);
    const counter = `ac:ratelimit:${keyId}:${window}`;
    const [[, count]] = (await this.redis
      .multi()
      .incr(counter)
      .pexpire(counter, WINDOW_MS + 1_000)
      .exec()) as [[Error | null, number], [Error | null, number]];
    const limit = this.config.security.rate_limit_per_minute;
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
      throw new AppError('rate_limited', `rate limit of ${limit} requests per minute exceeded`, {
        retry_after_s: retryAfter,
      });
    }
  }
}
