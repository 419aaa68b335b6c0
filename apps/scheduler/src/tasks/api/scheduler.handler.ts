import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes, type TaskNameRequest } from '@app/contracts';
import { CronTasksService } from './cron-tasks.service';
import { DelayTasksService } from './delay-tasks.service';

/** `scheduler.delays.*` and `scheduler.crons.*` (the gateway's REST routes): one service call each. */
@Injectable()
export class SchedulerHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(DelayTasksService) private readonly delays: DelayTasksService,
    @Inject(CronTasksService) private readonly crons: CronTasksService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.schedulerDelayCreate, (r) => this.delays.create(r));
    this.bus.serve(Routes.schedulerDelayList, (r) => this.delays.list(r));
    this.bus.serve(Routes.schedulerDelayGet, (r) => this.delays.get(...byName(r)));
    this.bus.serve(Routes.schedulerDelayCancel, (r) => this.delays.cancel(...byName(r)));
    this.bus.serve(Routes.schedulerCronCreate, (r) => this.crons.create(r));
    this.bus.serve(Routes.schedulerCronList, (r) => this.crons.list(r));
    this.bus.serve(Routes.schedulerCronGet, (r) => this.crons.get(...byName(r)));
    this.bus.serve(Routes.schedulerCronDelete, (r) => this.crons.delete(...byName(r)));
  }
}

function byName({ name, owner }: TaskNameRequest): [name: string, owner: string] {
  return [name, owner ?? ''];
}
