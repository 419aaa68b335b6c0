import { Inject, Injectable } from '@nestjs/common';
import { USAGE_BUCKETS, type UsageStatsRequest, type UsageView } from '@app/contracts';
import { RunUsageRepository } from '../store/run-usage.repository';
import { usageStats } from './usage-stats';

/** Usage over the last day or week from the runs table: one principal's runs, or (none given) everyone's. */
@Injectable()
export class UsageService {
  constructor(@Inject(RunUsageRepository) private readonly runs: RunUsageRepository) {}

  async stats(request: UsageStatsRequest, now = new Date()): Promise<UsageView> {
    const window = request.window ?? 'day';
    const { buckets, bucketMs } = USAGE_BUCKETS[window];
    const from = new Date((Math.floor(now.getTime() / bucketMs) + 1 - buckets) * bucketMs);
    const { rows, truncated } = await this.runs.since(from, request.principal || undefined);
    return usageStats(rows, window, now, truncated);
  }
}
