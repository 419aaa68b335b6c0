import { Inject, Injectable } from '@nestjs/common';
import { Logger } from '@app/observability';
import { dueTimesBetween, MISSED_TICKS_CAP, nextDue } from '../domain/cron-schedule';
import type { CronTask } from '../domain/task';
import { CronMetrics } from '../firing/cron-metrics';
import { TaskQueue } from '../firing/task-queue.service';
import { CronTaskRepository } from '../store/cron-task.repository';
import { TaskFireRepository } from '../store/task-fire.repository';

export interface CronReconcileReport {
  crons: number;
  missedTicks: number;
  rearmed: number;
  retired: number;
}

/**
 * Keeps crons honest against the clock: ticks nobody fired before the cutoff are recorded as
 * missed (never dropped silently), lost triggers are re-armed, finished crons are disabled.
 */
@Injectable()
export class CronReconcileService {
  constructor(
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(TaskFireRepository) private readonly fires: TaskFireRepository,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(CronMetrics) private readonly metrics: CronMetrics,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  /**
   * Ticks due before `cutoff` that nobody claimed become missed. A scheduler Redis still has is
   * left alone (its overdue job, if any, finds its tick recorded and skips); a lost one is re-armed.
   */
  async reconcile(cutoff: Date, now: Date): Promise<CronReconcileReport> {
    const report: CronReconcileReport = { crons: 0, missedTicks: 0, rearmed: 0, retired: 0 };
    const armed = await this.queue.armedCronIds();
    for (
      let page = await this.crons.enabledPage('');
      page.length;
      page = await this.crons.enabledPage(page[page.length - 1].id)
    ) {
      for (const task of page) await this.reconcileOne(task, cutoff, now, armed, report);
    }
    this.metrics.record('missed', report.missedTicks);
    return report;
  }

  private async reconcileOne(
    task: CronTask,
    cutoff: Date,
    now: Date,
    armed: Set<string>,
    report: CronReconcileReport,
  ) {
    report.crons++;
    report.missedTicks += await this.recordMissedTicks(task, cutoff, now);
    if (this.hasNoRunsLeft(task, now)) {
      await this.crons.disable(task.id);
      await this.queue.disarmCron(task.id);
      report.retired++;
      return;
    }
    if (!armed.has(task.id)) {
      await this.queue.armCron(task);
      report.rearmed++;
    }
  }

  /** Records every due time in [watermark, cutoff) that has no fire yet, then moves the watermark. */
  private async recordMissedTicks(task: CronTask, cutoff: Date, now: Date): Promise<number> {
    const spec = { expr: task.cron_expr, timezone: task.timezone };
    const from = task.next_run_at ?? nextDue(spec, task.created_at);
    const to = task.until && task.until < cutoff ? task.until : cutoff;
    if (!from || from >= to) return 0;
    const { times, truncated } = dueTimesBetween(spec, from, to, MISSED_TICKS_CAP);
    const note = truncated
      ? `missed; earlier ticks since ${from.toISOString()} were missed too and not recorded one by one (cap ${MISSED_TICKS_CAP})`
      : undefined;
    const recorded = await this.fires.recordMissed('cron', task.id, times, now, note);
    const next = nextDue(spec, new Date(to.getTime() - 1));
    if (next) await this.crons.advanceWatermark(task.id, next);
    if (recorded > 0) this.logger.warn('cron ticks missed', { task: task.name, count: recorded, truncated });
    return recorded;
  }

  private hasNoRunsLeft(task: CronTask, now: Date): boolean {
    if (task.max_runs > 0 && task.run_count >= task.max_runs) return true;
    if (!task.until) return false;
    const next = nextDue({ expr: task.cron_expr, timezone: task.timezone }, now);
    return !next || next >= task.until;
  }
}
