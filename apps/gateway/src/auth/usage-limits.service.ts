import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PlatformConfig } from '@app/config';
import { AppError, type Usage } from '@app/contracts';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG, REDIS } from '@app/runtime';
import { orUnavailable } from './redis-unavailable';

const DAY_MS = 86_400_000;
/** A crashed gateway must not hold a key's run slots forever. */
const RUN_SLOT_TTL_S = 3_600;

const QUOTA_USED_UP = -1;
const TOO_MANY_RUNS = -2;

/** KEYS: quota, slots. ARGV: quota, max runs, slot TTL (s). One round trip to admit a turn. */
const ADMIT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return ${QUOTA_USED_UP} end
local running = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
if running > tonumber(ARGV[2]) then
  redis.call('DECR', KEYS[2])
  return ${TOO_MANY_RUNS}
end
return running`;

/** KEYS: slots, quota. ARGV: tokens used, quota TTL (ms). One round trip to end a turn. */
const RELEASE = `
redis.call('DECR', KEYS[1])
if tonumber(ARGV[1]) > 0 then
  redis.call('INCRBY', KEYS[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 0`;

type Scripted = Redis & {
  acAdmitTurn(quota: string, slots: string, limit: number, maxRuns: number, ttlS: number): Promise<number>;
  acReleaseTurn(slots: string, quota: string, tokens: number, ttlMs: number): Promise<number>;
};

/**
 * Unbounded consumption guards per API key, in Redis so they hold across gateway replicas:
 * a cap on concurrent runs and a daily token quota (on top of each run's own token budget).
 */
@Injectable()
export class UsageLimits {
  private readonly redis: Scripted;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    redis.defineCommand('acAdmitTurn', { numberOfKeys: 2, lua: ADMIT });
    redis.defineCommand('acReleaseTurn', { numberOfKeys: 2, lua: RELEASE });
    this.redis = redis as Scripted;
  }

  /** Runs `turn` within the key's limits and charges its token usage to today's quota. */
  async withinLimits<T extends { usage?: Usage }>(
    keyId: string,
    turn: () => Promise<T>,
    now = Date.now(),
  ): Promise<T> {
    const { max_concurrent_runs: maxRuns, daily_token_quota: quota } = this.config.security;
    const quotaKey = `ac:tokens:${keyId}:${new Date(now).toISOString().slice(0, 10)}`;
    const slots = `ac:runs:${keyId}`;
    const admitted = await orUnavailable(
      this.redis.acAdmitTurn(quotaKey, slots, quota, maxRuns, RUN_SLOT_TTL_S),
      'the run limits',
    );
    if (admitted === QUOTA_USED_UP) {
      throw new AppError(
        'rate_limited',
        `daily token quota of ${quota} tokens used up (resets at 00:00 UTC)`,
        {
          retry_after_s: Math.ceil((DAY_MS - (now % DAY_MS)) / 1000),
        },
      );
    }
    if (admitted === TOO_MANY_RUNS) {
      throw new AppError('rate_limited', `at most ${maxRuns} concurrent runs per API key`, {
        retry_after_s: 1,
      });
    }
    let tokens = 0;
    try {
      const result = await turn();
      tokens = (result.usage?.prompt_tokens ?? 0) + (result.usage?.completion_tokens ?? 0);
      return result;
    } finally {
      // Not awaited: the caller's answer need not wait a Redis round trip. This connection sends
      // commands in order, so this gateway's next admission already sees the slot free.
      this.redis.acReleaseTurn(slots, quotaKey, tokens, 2 * DAY_MS).catch((err: unknown) =>
        this.logger.warn('cannot release a run slot; it expires within the hour', {
          key_id: keyId,
          error: (err as Error).message,
        }),
      );
    }
  }
}
