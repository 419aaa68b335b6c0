import { Inject, Injectable } from '@nestjs/common';
import {
  type CreateCronRequest,
  type CronTaskDetail,
  type CronTaskView,
  type ListCronsRequest,
  NotFoundError,
  UnavailableError,
} from '@app/contracts';
import { Logger, activeTraceparent } from '@app/observability';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import type { CronTask } from '../domain/task';
import { TaskQueue } from '../firing/task-queue.service';
import { TriggerTimers } from '../firing/trigger-timers.service';
import { CronTaskRepository } from '../store/cron-task.repository';
import type { TaskPage } from '../store/repository.util';
import { TaskFireRepository } from '../store/task-fire.repository';
import { TaskGuards } from './task-guards.service';
import { cronInput } from './task-input';
import { toCronDetail, toCronView } from './task.views';

export const RECENT_FIRES = 20;

/** Recurring tasks: what the cron_* functions and the /crons routes do. */
@Injectable()
export class CronTasksService {
  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(TaskFireRepository) private readonly fires: TaskFireRepository,
    @Inject(TaskGuards) private readonly guards: TaskGuards,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(TriggerTimers) private readonly timers: TriggerTimers,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async create(req: CreateCronRequest): Promise<CronTaskView> {
    const input = cronInput(req, new Date(), this.settings.minCronIntervalMs);
    await this.guards.admit(input.owner, input);
    let task = await this.crons.create({ ...input, traceparent: activeTraceparent() ?? null });
    try {
      task = await this.startWatermarkAt(task, await this.queue.armCron(task));
    } catch (err) {
      await this.crons.delete(task.id);
      this.logger.error('cannot arm a cron', { task: task.name, err });
      throw new UnavailableError('the scheduler cannot reach Redis to arm the task; try again');
    }
    if (task.next_run_at) this.timers.cronTickDue(task.id, task.next_run_at);
    this.logger.info('cron created', { task: task.name, cron_expr: task.cron_expr, timezone: task.timezone });
    return toCronView(task);
  }

  async list(req: ListCronsRequest): Promise<CronTaskView[]> {
    return (await this.crons.list({ name: req.name, owner: req.owner })).map((task) => toCronView(task));
  }

  /** One page of the list in its stable order, and how many tasks match in all. */
  async page(req: ListCronsRequest, page: TaskPage): Promise<{ tasks: CronTaskView[]; total: number }> {
    const filter = { name: req.name, owner: req.owner };
    const [rows, total] = await Promise.all([this.crons.list(filter, page), this.crons.count(filter)]);
    return { tasks: rows.map((task) => toCronView(task)), total };
  }

  /** The task with its most recent fires, newest first. */
  async get(name: string, owner = ''): Promise<CronTaskDetail> {
    const task = await this.find(name, owner);
    return toCronDetail(task, await this.fires.recent('cron', task.id, RECENT_FIRES));
  }

  async delete(name: string, owner = ''): Promise<CronTaskView> {
    const task = await this.find(name, owner);
    await this.crons.delete(task.id);
    // A trigger left behind finds no task when it fires and removes itself then.
    await this.queue
      .disarmCron(task.id)
      .catch((err: unknown) => this.logger.warn('cannot disarm a deleted cron', { task: name, err }));
    this.logger.info('cron deleted', { task: name });
    return toCronView({ ...task, enabled: false });
  }

  /**
   * Arming took a moment: when BullMQ's first due time is later than the one computed before,
   * the ticks in between never were the task's (it did not run yet), not missed ones.
   */
  private async startWatermarkAt(task: CronTask, firstDueMs: number | undefined): Promise<CronTask> {
    if (!firstDueMs || !task.next_run_at || firstDueMs <= task.next_run_at.getTime()) return task;
    const first = new Date(firstDueMs);
    await this.crons.advanceWatermark(task.id, first);
    return { ...task, next_run_at: first };
  }

  /** Another owner's task is not found, as if it did not exist (an anonymous caller sees all). */
  private async find(name: string, owner: string): Promise<CronTask> {
    const task = await this.crons.findByName(name);
    if (!task || (owner && task.owner !== owner)) throw new NotFoundError('cron', name);
    return task;
  }
}
