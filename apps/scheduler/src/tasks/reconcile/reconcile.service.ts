import { Inject, Injectable } from '@nestjs/common';
import { Logger } from '@app/observability';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { interruptedOutcome } from '../domain/fire-outcome';
import { overdueCutoff, overdueFate } from '../domain/misfire';
import type { DelayTask } from '../domain/task';
import { CronMetrics } from '../firing/cron-metrics';
import { TaskClaims } from '../firing/task-claims.service';
import { TaskQueue } from '../firing/task-queue.service';
import { CronTaskRepository } from '../store/cron-task.repository';
import { DelayTaskRepository } from '../store/delay-task.repository';
import { FunctionCallRecords } from '../store/function-call-records.repository';
import { TaskFireRepository } from '../store/task-fire.repository';
import { CronReconcileService } from './cron-reconcile.service';

/** A fire cannot outlive its deadline; past it (plus this margin) nobody is running it. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Makes the database and Redis agree. At start-up: interrupted fires fail, overdue delays follow
 * their misfire policy, the rest are re-armed, lost cron ticks are recorded as missed. Then, every
 * sweep: the same for what a crashed peer or a Redis failover left behind.
 */
@Injectable()
export class ReconcileService {
  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(TaskFireRepository) private readonly fires: TaskFireRepository,
    @Inject(FunctionCallRecords) private readonly calls: FunctionCallRecords,
    @Inject(TaskClaims) private readonly claims: TaskClaims,
    @Inject(CronReconcileService) private readonly cronReconcile: CronReconcileService,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(CronMetrics) private readonly metrics: CronMetrics,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  /**
   * Runs before this instance's worker starts, so none of the fires it finds running are its own.
   * Returns whether peers were alive, for `afterStart`.
   */
  async atStartup(): Promise<{ peersAlive: boolean }> {
    const now = new Date();
    const peersAlive = (await this.queue.peerWorkers()) > 0;
    const cutoff = overdueCutoff(now, peersAlive, this.settings.misfireGraceMs);
    const interrupted = await this.interrupt(peersAlive ? this.leaseCutoff(now) : now, now);
    const delays = await this.settleDelays(cutoff, now);
    const crons = await this.cronReconcile.reconcile(cutoff, now);
    this.logger.info('reconciled', {
      peers_alive: peersAlive,
      cutoff: cutoff.toISOString(),
      interrupted,
      ...delays,
      crons,
    });
    return { peersAlive };
  }

  /**
   * A cron's next BullMQ job is computed when its overdue one is taken, after start-up, from that
   * moment: ticks due between the start-up cutoff and then were never going to fire. Once the
   * worker runs, they are recorded as missed like the others.
   */
  async afterStart(workerStartedAt: Date, peersAlive: boolean): Promise<void> {
    const cutoff = overdueCutoff(workerStartedAt, peersAlive, this.settings.misfireGraceMs);
    const crons = await this.cronReconcile.reconcile(cutoff, new Date());
    if (crons.missedTicks)
      this.logger.info('ticks due while starting recorded as missed', { count: crons.missedTicks });
  }

  /**
   * Redis is back, perhaps empty (a restart without persistence loses every trigger): re-arm every
   * pending task from the database at once, rather than at the next sweep. Arming is idempotent,
   * so triggers Redis still holds are left as they are.
   */
  async rearmAll(): Promise<void> {
    const now = new Date();
    const cutoff = new Date(now.getTime() - this.settings.misfireGraceMs);
    const delays = await this.settleDelays(cutoff, now);
    const crons = await this.cronReconcile.reconcile(cutoff, now);
    this.logger.info('re-armed every trigger from the database after Redis came back', { ...delays, crons });
  }

  async sweep(): Promise<void> {
    const now = new Date();
    const cutoff = new Date(now.getTime() - this.settings.misfireGraceMs);
    const interrupted = await this.interrupt(this.leaseCutoff(now), now);
    const rearmed = await this.rearmLostDelays(cutoff);
    const crons = await this.cronReconcile.reconcile(cutoff, now);
    const repaired = interrupted || crons.missedTicks || crons.rearmed || crons.retired;
    if (repaired)
      this.logger.warn('sweep repaired tasks', { interrupted, overdue_delays_rearmed: rearmed, crons });
    else if (rearmed)
      this.logger.debug('sweep re-armed overdue delays (no-op for those still queued)', { count: rearmed });
  }

  private leaseCutoff(now: Date): Date {
    return new Date(now.getTime() - this.settings.fireTimeoutMs - LEASE_MARGIN_MS);
  }

  /** Every pending delay: overdue ones by their misfire policy, the others re-armed. */
  private async settleDelays(cutoff: Date, now: Date): Promise<{ missed: number; rearmed: number }> {
    let missed = 0;
    let rearmed = 0;
    for (
      let page = await this.delays.pendingPage('');
      page.length;
      page = await this.delays.pendingPage(last(page))
    ) {
      const toArm: DelayTask[] = [];
      for (const task of page) {
        if (task.run_at < cutoff && overdueFate(task, now) === 'missed') {
          if (await this.claims.markDelayMissed(task, now)) missed++;
        } else toArm.push(task);
      }
      await this.queue.armDelays(toArm);
      rearmed += toArm.length;
    }
    return { missed, rearmed };
  }

  /** A pending delay still not fired long after its time lost its trigger: arm it again (a no-op if it has one). */
  private async rearmLostDelays(cutoff: Date): Promise<number> {
    let count = 0;
    for (
      let page = await this.delays.pendingPage('', cutoff);
      page.length;
      page = await this.delays.pendingPage(last(page), cutoff)
    ) {
      await this.queue.armDelays(page);
      count += page.length;
    }
    return count;
  }

  /**
   * Fires running since before `startedBefore` were interrupted: each is recorded as its call's
   * record says it ended, else as `unknown` (never `failed`: it may have run); so are their delays.
   */
  private async interrupt(startedBefore: Date, now: Date): Promise<number> {
    let count = 0;
    for (
      let page = await this.fires.runningStartedBefore(startedBefore);
      page.length;
      page = await this.fires.runningStartedBefore(startedBefore)
    ) {
      for (const fire of page) {
        // a function fire's call id is the fire's id: its record, if the provider reported it, says how it ended
        const outcome = interruptedOutcome(await this.calls.outcomeOf(fire.id));
        if (!(await this.fires.markInterrupted(fire.id, outcome, now))) continue;
        count++;
        if (fire.task_kind === 'delay') await this.delays.markInterrupted(fire.task_id, outcome);
        else {
          await this.crons.setLastStatusIfLatest(fire.task_id, fire.started_at, outcome.status);
          this.metrics.record(outcome.status);
        }
      }
    }
    if (count) this.logger.warn('interrupted fires recorded', { count });
    return count;
  }
}

function last(page: { id: string }[]): string {
  return page[page.length - 1].id;
}
