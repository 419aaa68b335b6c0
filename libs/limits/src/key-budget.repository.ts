import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';

/** The API keys' own daily budgets, as stored with the keys. */
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
}
