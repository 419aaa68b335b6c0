import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { hasScope, Routes, type Scope, type UsageQuery, type UsageView } from '@app/contracts';
import { ApiKeysService } from '../auth/api-keys.service';

/**
 * Runs, tokens, cost and latency over the last day or week, counted by the executors from the
 * runs table: a key sees its principal's runs, an admin every principal's. Key ids are named here,
 * where the keys are kept.
 */
@Injectable()
export class UsageService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(ApiKeysService) private readonly keys: ApiKeysService,
  ) {}

  async stats(query: UsageQuery, caller: { principal: string; scopes: Scope[] }): Promise<UsageView> {
    const everyone = hasScope(caller.scopes, 'admin') || !caller.principal;
    const [view, keys] = await Promise.all([
      this.bus.request(Routes.agentUsageStats, everyone ? query : { ...query, principal: caller.principal }),
      this.keys.list(),
    ]);
    const names = new Map(
      keys.filter((k) => everyone || k.principal === caller.principal).map((k) => [k.id, k.name]),
    );
    return {
      ...view,
      by_key: view.by_key.map((series) =>
        names.has(series.key) ? { ...series, label: names.get(series.key) } : series,
      ),
    };
  }
}
