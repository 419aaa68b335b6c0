import { Inject, Injectable } from '@nestjs/common';
import {
  ConflictError,
  type CreateDelayRequest,
  type DelayTaskView,
  type ListDelaysRequest,
  NotFoundError,
  UnavailableError,
} from '@app/contracts';
import { Logger, activeTraceparent } from '@app/observability';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import type { DelayTask } from '../domain/task';
import { TaskQueue } from '../firing/task-queue.service';
import { TriggerTimers } from '../firing/trigger-timers.service';
import { DelayTaskRepository } from '../store/delay-task.repository';
import type { TaskPage } from '../store/repository.util';
import { TaskGuards } from './task-guards.service';
import { delayInput } from './task-input';
import { toDelayView } from './task.views';

/** One-off tasks: what the delay_* functions and the /delays routes do. */
@Injectable()
export class DelayTasksService {
  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(TaskGuards) private readonly guards: TaskGuards,
    @Inject(TaskQueue) private readonly queue: TaskQueue,
    @Inject(TriggerTimers) private readonly timers: TriggerTimers,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async create(req: CreateDelayRequest): Promise<DelayTaskView> {
    const input = delayInput(req, new Date());
    await this.guards.admit(input.owner, input);
    const task = await this.delays.create(
      { ...input, traceparent: activeTraceparent() ?? null },
      this.settings.catchupWindowMs,
    );
    try {
      await this.queue.armDelay(task);
    } catch (err) {
      await this.delays.remove(task.id);
      this.logger.error('cannot arm a delay', { task: task.name, err });
      throw new UnavailableError('the scheduler cannot reach Redis to arm the task; try again');
    }
    this.timers.delayDue(task.id, task.run_at);
    this.logger.info('delay created', {
      task: task.name,
      run_at: task.run_at.toISOString(),
      target: task.function_name || 'agent',
    });
    return toDelayView(task);
  }

  async list(req: ListDelaysRequest): Promise<DelayTaskView[]> {
    return (await this.delays.list({ status: req.status, owner: req.owner })).map(toDelayView);
  }

  /** One page of the list in its stable order, and how many tasks match in all. */
  async page(req: ListDelaysRequest, page: TaskPage): Promise<{ tasks: DelayTaskView[]; total: number }> {
    const filter = { status: req.status, owner: req.owner };
    const [rows, total] = await Promise.all([this.delays.list(filter, page), this.delays.count(filter)]);
    return { tasks: rows.map(toDelayView), total };
  }

  async get(name: string, owner = ''): Promise<DelayTaskView> {
    return toDelayView(await this.find(name, owner));
  }

  /** Only a pending delay can be cancelled; its trigger is removed (a late one would be refused anyway). */
  async cancel(name: string, owner = ''): Promise<DelayTaskView> {
    const task = await this.find(name, owner);
    if (!(await this.delays.cancel(task.id))) {
      const now = (await this.delays.findByName(name)) ?? task;
      throw new ConflictError(`delay '${name}' is ${now.status}; only a pending delay can be cancelled`);
    }
    await this.queue.disarmDelay(task.id);
    this.logger.info('delay cancelled', { task: name });
    return toDelayView({ ...task, status: 'cancelled' });
  }

  /** Another owner's task is not found, as if it did not exist (an anonymous caller sees all). */
  private async find(name: string, owner: string): Promise<DelayTask> {
    const task = await this.delays.findByName(name);
    if (!task || (owner && task.owner !== owner)) throw new NotFoundError('delay', name);
    return task;
  }
}
