import { Injectable } from '@nestjs/common';
import { Metrics } from '@app/observability';

/** `ac_cron_executions_total{status}` (seed 000 §2.5.2): every cron tick, by what became of it. */
@Injectable()
export class CronMetrics {
  record(status: 'completed' | 'failed' | 'missed', count = 1): void {
    if (count > 0) Metrics.cronExecutions().inc({ status }, count);
  }
}
