import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Logger } from '@app/observability';
import { nextDue } from '../domain/cron-schedule';
import { CronTaskRepository } from '../store/cron-task.repository';
import { DelayTaskRepository } from '../store/delay-task.repository';
import { cronTickJobId, delayJobId, TaskQueue } from './task-queue.service';

/** Triggers due within this horizon get a local timer; later ones are picked up by `lookahead`. */
export const TIMER_HORIZON_MS = 60_000;

/**
 * Punctuality. Redis wakes a worker blocked on a delayed job only on its own timer tick (`hz`,
 * 10 per second by default), so BullMQ alone starts a job up to ~100 ms late. A local timer
 * promotes the job at its due time instead; BullMQ still runs it, and runs it anyway (that little
 * later) when no timer does, e.g. when the process that armed it died.
 */
@Injectable()
export class TriggerTimers implements OnModuleDestroy {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  delayDue(taskId: string, runAt: Date): void {
    this.at(delayJobId(taskId), runAt.getTime());
  }

  cronTickDue(taskId: string, due: Date): void {
    this.at(cronTickJobId(taskId, due.getTime()), due.getTime());
  }

  /** Sets timers for every trigger entering the horizon: pending delays and the crons' next ticks. */
  async lookahead(now = new Date()): Promise<void> {
    const horizon = new Date(now.getTime() + TIMER_HORIZON_MS);
    for (
      let page = await this.delays.pendingPage('', horizon);
      page.length;
      page = await this.delays.pendingPage(page[page.length - 1].id, horizon)
    ) {
      for (const task of page) this.delayDue(task.id, task.run_at);
    }
    for (
      let page = await this.crons.enabledPage('');
      page.length;
      page = await this.crons.enabledPage(page[page.length - 1].id)
    ) {
      for (const task of page) {
        const next = nextDue({ expr: task.cron_expr, timezone: task.timezone }, now);
        if (next) this.cronTickDue(task.id, next);
      }
    }
  }

  onModuleDestroy(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private at(jobId: string, dueMs: number): void {
    const wait = dueMs - Date.now();
    if (wait <= 0 || wait > TIMER_HORIZON_MS || this.timers.has(jobId)) return;
    this.set(jobId, dueMs, wait);
  }

  private set(jobId: string, dueMs: number, wait: number): void {
    const timer = setTimeout(() => {
      // Node's timers can fire a millisecond before Date.now() reaches the due time.
      const early = dueMs - Date.now();
      if (early > 0) return this.set(jobId, dueMs, early);
      this.timers.delete(jobId);
      this.queue
        .promote(jobId)
        .catch((err: unknown) => this.logger.debug('cannot promote a trigger', { job: jobId, err }));
    }, wait);
    timer.unref();
    this.timers.set(jobId, timer);
  }
}
