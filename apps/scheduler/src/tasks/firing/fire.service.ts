import { Inject, Injectable } from '@nestjs/common';
import { Logger } from '@app/observability';
import { retry } from '@app/retry';
import { type CronSpec, nextDue } from '../domain/cron-schedule';
import { CronTaskRepository } from '../store/cron-task.repository';
import { DelayTaskRepository } from '../store/delay-task.repository';
import { CronMetrics } from './cron-metrics';
import { TaskClaims } from './task-claims.service';
import { TaskQueue } from './task-queue.service';
import { TaskRunner } from './task-runner.service';
import { TriggerTimers } from './trigger-timers.service';

/**
 * Fires a due task: claim its due time (the exactly-once step), run its target, store the outcome.
 * A trigger that cannot claim (a duplicate job, a peer was first, the task was cancelled) does nothing.
 */
@Injectable()
export class FireService {
  constructor(
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(TaskClaims) private readonly claims: TaskClaims,
    @Inject(TaskRunner) private readonly runner: TaskRunner,
    @Inject(TriggerTimers) private readonly timers: TriggerTimers,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(CronMetrics) private readonly metrics: CronMetrics,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async fireDelay(taskId: string, runAtMs: number): Promise<void> {
    const claim = await this.claims.claimDelay(taskId, new Date(runAtMs), new Date());
    if (!claim) {
      this.logger.debug('delay trigger skipped: not pending', { task_id: taskId });
      return;
    }
    const outcome = await this.runner.run(claim.task, claim.fireId, new Date(runAtMs));
    await persistently(() => this.delays.finish(claim, outcome, new Date()));
    this.logger.info(`delay ${outcome.status}`, { task: claim.task.name, error: outcome.error });
  }

  async fireCron(taskId: string, dueMs: number, schedule: CronSpec): Promise<void> {
    const due = new Date(dueMs);
    const next = nextDue(schedule, due);
    const claim = await this.claims.claimCronTick(taskId, due, new Date(), next);
    if (claim === 'taken') {
      this.logger.debug('cron tick skipped: already claimed', { task_id: taskId, due: due.toISOString() });
      return;
    }
    if (claim === 'exhausted') return this.retire(taskId);
    if (next) this.timers.cronTickDue(taskId, next);
    const { task } = claim;
    const outcome = await this.runner.run(task, claim.fireId, due);
    const exhausted = await persistently(() => this.crons.finishTick(claim, outcome, new Date(), next));
    this.metrics.record(outcome.status);
    this.logger.info(`cron tick ${outcome.status}`, {
      task: task.name,
      due: due.toISOString(),
      error: outcome.error,
    });
    if (exhausted) await this.retire(taskId);
    else if (outcome.final) await this.retire(taskId, outcome.error);
  }

  /**
   * A cron with no run left (or deleted), or whose every later tick would be refused (its key was
   * revoked or deleted: the tick's record says so), stops: disabled, its BullMQ scheduler removed.
   */
  private async retire(taskId: string, refused?: string): Promise<void> {
    const task = await this.crons.findById(taskId);
    await this.crons.disable(taskId);
    await this.queue.disarmCron(taskId);
    const why = refused ? `cron disabled: ${refused}` : 'cron disabled: no runs left';
    this.logger.info(task ? why : 'trigger of a deleted cron removed', { task: task?.name, task_id: taskId });
  }
}

/** A fire's outcome is written again after 0.25 s, 1 s and 4 s before the failure is let through. */
const RECORD_RETRY = { policy: { firstMs: 250, maxMs: 4_000, factor: 4 }, forMs: 6_000 };

/**
 * Once the target has answered, its outcome must be stored: a retry of the whole job would find the
 * due time claimed and leave the fire to be called "interrupted". So the write is retried here,
 * whatever failed it (the database away for a moment is the usual cause).
 */
function persistently<T>(write: () => Promise<T>): Promise<T> {
  return retry(write, {
    policy: RECORD_RETRY.policy,
    retryable: () => true,
    deadline: Date.now() + RECORD_RETRY.forMs,
  });
}
