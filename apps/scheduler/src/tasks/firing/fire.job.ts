import { Inject, Injectable } from '@nestjs/common';
import { type Job, Worker } from 'bullmq';
import { Logger } from '@app/observability';
import { QUEUE_NAME, SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { FireService } from './fire.service';
import { bullConnection, type FireJobData } from './task-queue.service';

/** The BullMQ worker: each due trigger becomes one FireService call. */
@Injectable()
export class FireJob {
  private worker?: Worker<FireJobData>;

  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(FireService) private readonly fires: FireService,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  start(): void {
    this.worker = new Worker<FireJobData>(QUEUE_NAME, (job) => this.process(job), {
      connection: bullConnection(this.settings),
      prefix: this.settings.queuePrefix,
      concurrency: this.settings.concurrency,
      name: this.settings.instance,
    });
    this.worker.on('error', (err) => this.logger.error('scheduler worker error', { err }));
    this.worker.on('failed', (job, err) =>
      this.logger.warn('fire job failed', { job: job?.id, attempt: job?.attemptsMade, err }),
    );
  }

  /** Lets in-flight fires finish until the deadline, then stops hard (they become "interrupted"). */
  async stop(deadlineMs: number): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)),
    );
    const result = await Promise.race([worker.close().then(() => 'closed' as const), timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.logger.warn('in-flight fires did not finish in time; stopping anyway');
      await worker.close(true);
    }
  }

  private async process(job: Job<FireJobData>): Promise<void> {
    const data = job.data;
    if (data.kind === 'delay') return this.fires.fireDelay(data.task_id, data.run_at);
    // A job scheduler's job carries its due time as `prevMillis`; that, not "now", keys the tick.
    const due = job.opts.prevMillis ?? job.timestamp + job.delay;
    return this.fires.fireCron(data.task_id, due, { expr: data.cron_expr, timezone: data.timezone });
  }
}
