import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PlatformConfig } from '@app/config';
import { AppError, type Usage } from '@app/contracts';
import { PLATFORM_CONFIG, REDIS } from '@app/runtime';

const DAY_MS = 86_400_000;
/** A crashed gateway must not hold a key's run slots forever. */
const RUN_SLOT_TTL_S = 3_600;

/**
 * Unbounded consumption guards per API key, in Redis so they hold across gateway replicas:
 * a cap on concurrent runs and a daily token quota (on top of each run's own token budget).
 */
@Injectable()
export class UsageLimits {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** Runs `turn` within the key's limits and charges its token usage to today's quota. */
  async withinLimits<T extends { usage?: Usage }>(
    keyId: string,
    turn: () => Promise<T>,
    now = Date.now(),
  ): Promise<T> {
    await this.checkQuota(keyId, now);
    const slots = `ac:runs:${keyId}`;
    const [[, running]] = (await this.redis.multi().incr(slots).expire(slots, RUN_SLOT_TTL_S).exec()) as [
      [Error | null, number],
    ];
    try {
      if (running > this.config.security.max_concurrent_runs) {
        throw new AppError(
          'rate_limited',
          `at most ${this.config.security.max_concurrent_runs} concurrent runs per API key`,
          {
            retry_after_s: 1,
          },
        );
      }
      const result = await turn();
      await this.charge(keyId, result.usage, now);
      return result;
    } finally {
      await this.redis.decr(slots);
    }
  }

  private async checkQuota(keyId: string, now: number): Promise<void> {
    const used = Number((await this.redis.get(this.quotaKey(keyId, now))) ?? 0);
    const quota = this.config.security.daily_token_quota;
    if (used >= quota) {
      const retryAfter = Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);
      throw new AppError(
        'rate_limited',
        `daily token quota of ${quota} tokens used up (resets at 00:00 UTC)`,
        {
          retry_after_s: retryAfter,
        },
      );
    }
  }

  private async charge(keyId: string, usage: Usage | undefined, now: number): Promise<void> {
    const tokens = (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0);
    if (tokens <= 0) return;
    const key = this.quotaKey(keyId, now);
    await this.redis
      .multi()
      .incrby(key, tokens)
      .pexpire(key, 2 * DAY_MS)
      .exec();
  }

  private quotaKey(keyId: string, now: number): string {
    return `ac:tokens:${keyId}:${new Date(now).toISOString().slice(0, 10)}`;
  }
}
