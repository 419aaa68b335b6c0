import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PlatformConfig } from '@app/config';
import { AppError, type Usage } from '@app/contracts';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG, REDIS } from '@app/runtime';
import { orUnavailable } from './redis-unavailable';
import { AdmittedAhead } from './admitted-ahead';
import { DAY_COUNTER_TTL_MS, spendKeyOf, tokensKeyOf } from './key-day';
import {
  BUDGET_SPENT,
  type DayLimits,
  QUOTA_USED_UP,
  type RateWindow,
  RunSlots,
  type Slot,
  TOO_MANY_RUNS,
} from './run-slots';

const DAY_MS = 86_400_000;

/** Whose limits a run counts against; `admittedAhead`: its admission, made with its request's rate-limit hit. */
export interface RunCaller {
  keyId: string;
  /** The key's own daily budget in USD, when it has one (else the platform's). */
  dailyCostBudgetUsd?: number;
  /** The run's admission, made with its request's rate-limit hit. */
  admittedAhead?: AdmittedAhead;
}

/**
 * Unbounded consumption guards per API key, in Redis so they hold across gateway replicas:
 * a cap on concurrent runs, a daily token quota and a daily budget in USD (on top of each run's
 * own token and cost budgets). The USD budget is checked here when a run is admitted and drawn on
 * by each of its model calls before it is sent (`KeySpend`, in the executor).
 */
@Injectable()
export class UsageLimits {
  private readonly slots: RunSlots;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.slots = new RunSlots(redis, (err) =>
      this.logger.warn('cannot renew run slots; they lapse unless renewed', { error: err.message }),
    );
  }

  /**
   * Runs `turn` within the key's limits and charges its tokens and cost to today's counters. The
   * run slot is released when the turn ends, or earlier when `signal` aborts (the caller went away:
   * its run goes on, but no longer holds one of the key's slots); the usage is charged at the end.
   */
  async withinLimits<T extends { usage?: Usage }>(
    caller: RunCaller,
    turn: () => Promise<T>,
    { now = Date.now(), signal }: { now?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const { keyId } = caller;
    const { max_concurrent_runs: maxRuns, daily_token_quota: quota } = this.config.security;
    const ahead = caller.admittedAhead?.take();
    const day = ahead?.day ?? this.dayOf(caller, now);
    const admitted = ahead
      ? ahead.admitted
      : await orUnavailable(this.slots.admit(day, `ac:slots:${keyId}`, maxRuns), 'the run limits');
    const untilMidnight = { retry_after_s: Math.ceil((DAY_MS - (now % DAY_MS)) / 1000) };
    if (admitted === QUOTA_USED_UP) {
      throw new TokenQuotaUsedUpError(quota, untilMidnight.retry_after_s);
    }
    if (admitted === BUDGET_SPENT) {
      throw new AppError(
        'budget_exceeded',
        `daily cost budget of ${day.budget} USD spent (resets at 00:00 UTC)`,
        untilMidnight,
      );
    }
    if (admitted === TOO_MANY_RUNS) {
      throw new AppError('rate_limited', `at most ${maxRuns} concurrent runs per API key`, {
        retry_after_s: 1,
      });
    }
    const release = (spent: { tokens: number; usd: number }) =>
      this.release(admitted as Slot, day, spent, keyId);
    const callerGone = () => void release({ tokens: 0, usd: 0 });
    if (signal?.aborted) callerGone();
    else signal?.addEventListener('abort', callerGone, { once: true });
    let spent = { tokens: 0, usd: 0 };
    try {
      const result = await turn();
      // With a budget, each model call of the run already held and settled its USD in the key's
      // day (KeySpend, in the executor): only the tokens are left to count.
      spent = { ...spentOf(result.usage), ...(day.budget === undefined ? {} : { usd: 0 }) };
      return result;
    } finally {
      signal?.removeEventListener('abort', callerGone);
      // Releasing twice is harmless: the second only charges the usage.
      void release(spent);
    }
  }

  /**
   * The request's hit in its rate-limit window (`count`: the window's hits so far, for the caller to
   * refuse) and, unless that is over the limit, its run's admission, in one round trip: what its
   * turn's `withinLimits` then takes.
   */
  async admitAhead(
    caller: RunCaller,
    rate: RateWindow,
    now = Date.now(),
  ): Promise<{ count: number; ahead: AdmittedAhead }> {
    const day = this.dayOf(caller, now);
    const slots = `ac:slots:${caller.keyId}`;
    const maxRuns = this.config.security.max_concurrent_runs;
    const { count, admitted } = await orUnavailable(
      this.slots.hitAndAdmit(rate, day, slots, maxRuns),
      'the rate limit',
    );
    const free = (slot: Slot) => this.release(slot, day, { tokens: 0, usd: 0 }, caller.keyId);
    return { count, ahead: new AdmittedAhead(day, admitted, free) };
  }

  /**
   * Charges usage that held no run slot (asking the model where a message goes) to today's
   * counters. Not awaited, as a slot's release is not: a failure is logged.
   */
  charge(caller: RunCaller, usage: Usage, now = Date.now()): void {
    this.slots.charge(this.dayOf(caller, now), spentOf(usage), DAY_COUNTER_TTL_MS).catch((err: unknown) =>
      this.logger.warn('cannot charge usage to the key; it is not counted', {
        key_id: caller.keyId,
        error: (err as Error).message,
      }),
    );
  }

  private dayOf(caller: RunCaller, now: number): DayLimits {
    return {
      quotaKey: tokensKeyOf(caller.keyId, now),
      quota: this.config.security.daily_token_quota,
      costKey: spendKeyOf(caller.keyId, now),
      budget: caller.dailyCostBudgetUsd ?? this.config.security.daily_cost_budget_usd,
    };
  }

  private release(slot: Slot, day: DayLimits, spent: { tokens: number; usd: number }, keyId: string): void {
    // Not awaited: the caller's answer need not wait a Redis round trip. This connection sends
    // commands in order (pending releases before an admission), so this gateway's next admission
    // already sees the slot free.
    this.slots.release(slot, day, spent, DAY_COUNTER_TTL_MS).catch((err: unknown) =>
      this.logger.warn('cannot release a run slot; its lease lapses within seconds', {
        key_id: keyId,
        error: (err as Error).message,
      }),
    );
  }
}

function spentOf(usage: Usage | undefined): { tokens: number; usd: number } {
  return {
    tokens: (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
    usd: usage?.cost_usd ?? 0,
  };
}

/** The key's daily token quota is used up: a limit until midnight, not a rate (OpenAI's `insufficient_quota`). */
export class TokenQuotaUsedUpError extends AppError {
  constructor(quota: number, retryAfterS: number) {
    super('rate_limited', `daily token quota of ${quota} tokens used up (resets at 00:00 UTC)`, {
      retry_after_s: retryAfterS,
    });
  }
}
