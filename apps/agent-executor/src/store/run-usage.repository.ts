import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';

/** One run as a usage chart counts it. */
export interface UsageRow {
  created_at: Date;
  agent: string;
  key_id: string | null;
  status: string;
  prompt_tokens: number;
  cached_prompt_tokens?: number;
  completion_tokens: number;
  cost_usd: number | null;
  total_ms: number | null;
}

/** At most this many runs are read for one chart: the newest, when a window holds more. */
export const MAX_USAGE_ROWS = 50_000;

/** The runs a usage chart counts: those that started in a window, only the columns it needs. */
@Injectable()
export class RunUsageRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** `owner`: one principal's runs; undefined: every principal's. */
  async since(from: Date, owner?: string): Promise<{ rows: UsageRow[]; truncated: boolean }> {
    const rows = await this.db.run.findMany({
      where: { created_at: { gte: from }, ...(owner === undefined ? {} : { owner }) },
      orderBy: { created_at: 'desc' },
      take: MAX_USAGE_ROWS + 1,
      select: {
        created_at: true,
        agent: true,
        key_id: true,
        status: true,
        prompt_tokens: true,
        cached_prompt_tokens: true,
        completion_tokens: true,
        cost_usd: true,
        total_ms: true,
      },
    });
    return { rows: rows.slice(0, MAX_USAGE_ROWS), truncated: rows.length > MAX_USAGE_ROWS };
  }
}
