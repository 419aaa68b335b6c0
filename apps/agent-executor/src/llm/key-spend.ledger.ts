import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AgentError, type RunState, type SpendHold, type SpendLedger } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { KeyBudgetRepository, KeySpend } from '@app/limits';
import { Logger } from '@app/observability';
import { connectRedis, PLATFORM_CONFIG } from '@app/runtime';

/** How long a key's budget is trusted before it is read again (the gateway's key checks are cached as long). */
const BUDGET_TTL_MS = 5_000;

/**
 * The executor's side of an API key's daily USD budget: each model call of a run done for a key
 * with a budget (its own `daily_cost_budget_usd`, else `security.daily_cost_budget_usd`) holds its
 * worst case in the key's day in Redis before it is sent and settles at what it cost (the run
 * engine's `SpendLedger`). Runs without a key, or keys without a budget, never reach Redis, which
 * this executor connects to only when a first such call needs it.
 */
@Injectable()
export class KeySpendLedger implements SpendLedger, OnApplicationShutdown {
  private readonly budgets = new Map<string, { until: number; budget: Promise<number | undefined> }>();
  private readonly spend: KeySpend;
  private redis?: Promise<Redis>;

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(KeyBudgetRepository) private readonly keys: KeyBudgetRepository,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.spend = new KeySpend(
      () => (this.redis ??= connectRedis(config.redis.url)),
      (err) =>
        this.logger.warn("cannot settle a model call in its key's budget; its worst case stays counted", {
          error: err.message,
        }),
    );
  }

  async applies(run: RunState): Promise<boolean> {
    const keyId = run.identity.keyId;
    return keyId !== undefined && (await this.budgetOf(keyId)) !== undefined;
  }

  async reserve(run: RunState, usd: number): Promise<SpendHold | undefined> {
    const keyId = run.identity.keyId as string;
    const budget = (await this.budgetOf(keyId)) as number;
    try {
      return await this.spend.reserve(keyId, budget, usd);
    } catch (err) {
      throw new AgentError(
        'unavailable',
        `the API key's cost budget cannot be checked: ${(err as Error).message}`,
        true,
      );
    }
  }

  /** The key's budget: its own, else the platform's; undefined when neither is set. */
  private budgetOf(keyId: string): Promise<number | undefined> {
    const now = Date.now();
    const known = this.budgets.get(keyId);
    if (known && known.until > now) return known.budget;
    const budget = this.keys
      .dailyBudgetUsd(keyId)
      .then((own) => own ?? this.config.security.daily_cost_budget_usd);
    // a failed read is not kept: the next call asks again
    budget.catch(() => this.budgets.delete(keyId));
    this.budgets.set(keyId, { until: now + BUDGET_TTL_MS, budget });
    if (this.budgets.size > 10_000) this.budgets.delete(this.budgets.keys().next().value as string);
    return budget;
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = await this.redis?.catch(() => undefined);
    await redis?.quit().catch(() => redis.disconnect());
  }
}
