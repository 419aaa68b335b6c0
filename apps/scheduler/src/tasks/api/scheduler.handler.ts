import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  CreateCronRequest,
  CreateDelayRequest,
  ListCronsRequest,
  ListDelaysRequest,
  parseDto,
  QueueGroups,
  Subjects,
  TaskNameRequest,
} from '@app/contracts';
import { CronTasksService } from './cron-tasks.service';
import { DelayTasksService } from './delay-tasks.service';

/** `scheduler.delays.*` and `scheduler.crons.*` (the gateway's REST routes): parse, one service call. */
@Injectable()
export class SchedulerHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(DelayTasksService) private readonly delays: DelayTasksService,
    @Inject(CronTasksService) private readonly crons: CronTasksService,
  ) {}

  onApplicationBootstrap(): void {
    const serve = (subject: string, handler: (data: unknown) => Promise<unknown>) =>
      this.bus.serve(subject, handler, { queue: QueueGroups.scheduler });
    serve(Subjects.schedulerDelayCreate, (d) => this.delays.create(parseDto(CreateDelayRequest, d)));
    serve(Subjects.schedulerDelayList, (d) => this.delays.list(parseDto(ListDelaysRequest, d)));
    serve(Subjects.schedulerDelayGet, (d) => this.delays.get(...byName(d)));
    serve(Subjects.schedulerDelayCancel, (d) => this.delays.cancel(...byName(d)));
    serve(Subjects.schedulerCronCreate, (d) => this.crons.create(parseDto(CreateCronRequest, d)));
    serve(Subjects.schedulerCronList, (d) => this.crons.list(parseDto(ListCronsRequest, d)));
    serve(Subjects.schedulerCronGet, (d) => this.crons.get(...byName(d)));
    serve(Subjects.schedulerCronDelete, (d) => this.crons.delete(...byName(d)));
  }
}

function byName(data: unknown): [name: string, owner: string] {
  const { name, owner } = parseDto(TaskNameRequest, data);
  return [name, owner ?? ''];
}
