import { Injectable, type OnModuleInit } from '@nestjs/common';
import { initialiseCounter, Metrics } from '@app/observability';

const CRON_OUTCOMES = ['completed', 'failed', 'missed', 'refused', 'unknown'] as const;

/**
 * `ac_cron_executions_total{status}`: every cron tick, by what became of it.
 * Each status is exported at 0 from the start, so "no fires" and "no scheduler" differ.
 */
@Injectable()
export class CronMetrics implements OnModuleInit {
  onModuleInit(): void {
    initialiseCounter(
      Metrics.cronExecutions(),
      CRON_OUTCOMES.map((status) => ({ status })),
    );
  }

  record(status: (typeof CRON_OUTCOMES)[number], count = 1): void {
    if (count > 0) Metrics.cronExecutions().inc({ status }, count);
  }
}
