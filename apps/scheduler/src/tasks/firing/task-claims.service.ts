import { Inject, Injectable } from '@nestjs/common';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { dueTimesBetween, MISSED_TICKS_CAP } from '../domain/cron-schedule';
import type { CronClaim, CronTask, DelayClaim, DelayTask } from '../domain/task';
import { CronTaskRepository } from '../store/cron-task.repository';
import { DelayTaskRepository } from '../store/delay-task.repository';
import { TaskFireRepository } from '../store/task-fire.repository';
import { CronMetrics } from './cron-metrics';

/**
 * The exactly-once step. A due time is claimed by inserting its fire row, whose unique key
 * (task, due time) admits one writer; only then is the task's own state moved on, by a
 * conditional update that can still refuse (cancelled, disabled, no runs left), in which case
 * the claim is withdrawn. Single statements, no interactive transaction: nothing to roll back,
 * and every database gives the same guarantee. A crash between the two leaves a `running` fire
 * that the sweep records as interrupted (`unknown` unless its call's record says more).
 */
@Injectable()
export class TaskClaims {
  constructor(
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(TaskFireRepository) private readonly fires: TaskFireRepository,
    @Inject(CronMetrics) private readonly metrics: CronMetrics,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
  ) {}

  /** The delay's one due time, for the one trigger that gets here first; null for any other. */
  async claimDelay(taskId: string, runAt: Date, now: Date): Promise<DelayClaim | null> {
    const fireId = await this.fires.insertClaim('delay', taskId, runAt, 'running', now);
    if (!fireId) return null;
    const task = await this.delays.leavePending(taskId, 'running', now);
    if (!task) {
      await this.fires.remove(fireId);
      return null;
    }
    return { task, fireId };
  }

  /** Records the delay's due time as missed; false when it was fired, cancelled or recorded already. */
  async markDelayMissed(task: DelayTask, now: Date): Promise<boolean> {
    const fireId = await this.fires.insertClaim('delay', task.id, task.run_at, 'missed', now);
    if (!fireId) return false;
    if (await this.delays.leavePending(task.id, 'missed', now)) return true;
    await this.fires.remove(fireId);
    return false;
  }

  /** `exhausted` when the tick was free but the task has no run left for it (or is gone). */
  async claimCronTick(
    taskId: string,
    due: Date,
    now: Date,
    next: Date | undefined,
  ): Promise<CronClaim | 'taken' | 'exhausted'> {
    let fireId = await this.fires.insertClaim('cron', taskId, due, 'running', now);
    let reclaimed = false;
    if (!fireId) {
      fireId = await this.reclaimSkipped(taskId, due, now);
      reclaimed = fireId !== null;
    }
    if (!fireId) return 'taken';
    const task = await this.crons.countRun(taskId, due, now);
    if (!task) {
      await (reclaimed ? this.fires.missedAgain(fireId, now) : this.fires.remove(fireId));
      return 'exhausted';
    }
    await this.recordSkipped(task, due, now);
    if (next) await this.crons.advanceWatermarkPast(taskId, due, next);
    return { task, fireId };
  }

  /**
   * A tick recorded missed by a later one (`recordSkipped`) while its own trigger was still being
   * retried (the database cut its claim, the job was tried again a few seconds on): the trigger
   * that does come within the misfire grace fires it after all — as a peer's tick inside the grace
   * is its own to fire. A tick older than the grace stays missed, as the sweep records it.
   */
  private async reclaimSkipped(taskId: string, due: Date, now: Date): Promise<string | null> {
    if (now.getTime() - due.getTime() > this.settings.misfireGraceMs) return null;
    return this.fires.reclaimMissed('cron', taskId, due, now);
  }

  /**
   * Ticks between the watermark and this one that nobody fired were skipped (a trigger re-armed
   * after a restart comes for the next tick after its own start): recorded as missed now, not
   * minutes later by the sweep, so a cron's record has every tick.
   */
  private async recordSkipped(task: CronTask, due: Date, now: Date): Promise<void> {
    if (!task.next_run_at || task.next_run_at >= due) return;
    const spec = { expr: task.cron_expr, timezone: task.timezone };
    const { times } = dueTimesBetween(spec, task.next_run_at, due, MISSED_TICKS_CAP);
    this.metrics.record('missed', await this.fires.recordMissed('cron', task.id, times, now));
    await this.crons.advanceWatermark(task.id, due);
  }
}
