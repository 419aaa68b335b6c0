import { Inject, Injectable } from '@nestjs/common';
import { AppError, InvalidParamsError } from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { SCHEDULER_SETTINGS, type SchedulerSettings } from '../config/scheduler.config';
import { CronTaskRepository } from './cron-task.repository';
import { DelayTaskRepository } from './delay-task.repository';
import type { TargetInput } from './task-input';

/** The rules a new task must pass beyond its own fields: the owner's quota, a function that exists. */
@Injectable()
export class TaskGuards {
  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(FunctionCatalog) private readonly catalog: FunctionCatalog,
  ) {}

  async admit(owner: string, target: TargetInput): Promise<void> {
    await this.checkQuota(owner);
    if (target.target === 'function') await this.checkFunction(target.function_name);
  }

  private async checkQuota(owner: string): Promise<void> {
    const limit = this.settings.maxTasksPerOwner;
    const active = (await this.delays.countPending(owner)) + (await this.crons.countEnabled(owner));
    if (active >= limit) {
      const who = owner ? `'${owner}'` : 'this owner';
      throw new AppError(
        'forbidden',
        `${who} already has ${active} active tasks, the most allowed (${limit}); cancel or delete one first`,
      );
    }
  }

  private async checkFunction(name: string): Promise<void> {
    if (await this.catalog.get(name)) return;
    const names = (await this.catalog.list()).map((f) => f.name);
    const available = names.length
      ? `; available: ${names.join(', ')}`
      : '; no function provider answers right now';
    throw new InvalidParamsError([{ field: 'function', message: `unknown function '${name}'${available}` }]);
  }
}
