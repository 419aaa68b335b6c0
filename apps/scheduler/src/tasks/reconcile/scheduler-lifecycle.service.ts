import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Logger } from '@app/observability';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { FireJob } from '../firing/fire.job';
import { TaskQueue } from '../firing/task-queue.service';
import { TIMER_HORIZON_MS, TriggerTimers } from '../firing/trigger-timers.service';
import { ReconcileService } from './reconcile.service';

/** When the worker has surely taken the overdue cron jobs and BullMQ has scheduled their next ticks. */
const START_GAP_CHECK_MS = 2_000;

/** Start-up order (reconcile, then fire) and shutdown order (stop firing, let fires finish, close). */
@Injectable()
export class SchedulerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private sweepTimer?: NodeJS.Timeout;
  private startGapTimer?: NodeJS.Timeout;
  private lookaheadTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(ReconcileService) private readonly reconcile: ReconcileService,
    @Inject(FireJob) private readonly fireJob: FireJob,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(TriggerTimers) private readonly timers: TriggerTimers,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { peersAlive } = await this.reconcile.atStartup();
    this.fireJob.start();
    const workerStartedAt = new Date();
    this.startGapTimer = setTimeout(
      () => this.run(() => this.reconcile.afterStart(workerStartedAt, peersAlive)),
      START_GAP_CHECK_MS,
    );
    this.sweepTimer = setInterval(
      () => this.run(() => this.reconcile.sweep()),
      this.settings.sweepIntervalMs,
    );
    this.lookaheadTimer = setInterval(() => this.lookahead(), TIMER_HORIZON_MS / 2);
    this.lookahead();
    for (const timer of [this.startGapTimer, this.sweepTimer, this.lookaheadTimer]) timer.unref();
    await this.queue.onReconnect(() => {
      // after any repair in progress (it may have been waiting on Redis), never instead of it
      this.run(() => this.reconcile.rearmAll(), { queued: true });
      this.lookahead();
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.sweepTimer);
    clearTimeout(this.startGapTimer);
    clearInterval(this.lookaheadTimer);
    await this.sweeping;
    await this.fireJob.stop(this.settings.fireTimeoutMs);
    await this.queue.close();
  }

  private lookahead(): void {
    this.timers.lookahead().catch((err: unknown) => this.logger.warn('trigger lookahead failed', { err }));
  }

  /**
   * One repair at a time; a failed one is logged and the next interval tries again. A periodic
   * one is skipped while another runs; a `queued` one runs after it.
   */
  private run(work: () => Promise<void>, { queued = false } = {}): void {
    if (this.sweeping && !queued) return;
    const current: Promise<void> = (this.sweeping ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) => this.logger.error('sweep failed', { err }))
      .finally(() => {
        if (this.sweeping === current) this.sweeping = undefined;
      });
    this.sweeping = current;
  }
}
