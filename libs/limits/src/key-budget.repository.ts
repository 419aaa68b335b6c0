import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';

/** The API keys' own daily budgets and standing, as stored with the keys. */
@Injectable()
export class KeyBudgetRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** The key's own daily budget in USD; undefined when it has none (the platform's applies) or is unknown. */
  async dailyBudgetUsd(keyId: string): Promise<number | undefined> {
    const key = await this.db.apiKey.findUnique({
      where: { id: keyId },
      select: { daily_cost_budget_usd: true },
    });
    return key?.daily_cost_budget_usd ?? undefined;
  }

  /** What work done for the key now needs: its scopes, its budget, whether it was revoked; null when it is gone. */
  async standing(keyId: string): Promise<KeyStanding | null> {
    const key = await this.db.apiKey.findUnique({
      where: { id: keyId },
      select: { scopes: true, daily_cost_budget_usd: true, revoked_at: true },
    });
    if (!key) return null;
    return {
      scopes: key.scopes.split(' ').filter(Boolean),
      dailyCostBudgetUsd: key.daily_cost_budget_usd ?? undefined,
      revokedAt: key.revoked_at ?? undefined,
    };
  }
}

export interface KeyStanding {
  scopes: string[];
  dailyCostBudgetUsd?: number;
  revokedAt?: Date;
}
