import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type CreateCronBody,
  type CreateDelayBody,
  type CronTaskDetail,
  type CronTaskView,
  type DelayTaskView,
  type ListCronsQuery,
  type ListDelaysQuery,
  Routes,
  type TaskNameRequest,
} from '@app/contracts';
import { listOwner, nameOwner, type TaskCaller } from './task-caller';

/**
 * The /delays and /crons routes, relayed to the scheduler over NATS. The caller's principal owns
 * what it creates; an admin sees and manages every principal's tasks (see `task-caller.ts`).
 */
@Injectable()
export class TasksService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  createDelay(body: CreateDelayBody, caller: TaskCaller): Promise<DelayTaskView> {
    return this.bus.request(Routes.schedulerDelayCreate, {
      ...body,
      owner: caller.principal,
      key_id: caller.keyId,
    });
  }

  listDelays(query: ListDelaysQuery, caller: TaskCaller): Promise<DelayTaskView[]> {
    return this.bus.request(Routes.schedulerDelayList, { ...query, owner: listOwner(caller, query.owner) });
  }

  getDelay(name: string, caller: TaskCaller): Promise<DelayTaskView> {
    return this.bus.request(Routes.schedulerDelayGet, byName(name, caller));
  }

  cancelDelay(name: string, caller: TaskCaller): Promise<DelayTaskView> {
    return this.bus.request(Routes.schedulerDelayCancel, byName(name, caller));
  }

  createCron(body: CreateCronBody, caller: TaskCaller): Promise<CronTaskView> {
    return this.bus.request(Routes.schedulerCronCreate, {
      ...body,
      owner: caller.principal,
      key_id: caller.keyId,
    });
  }

  listCrons(query: ListCronsQuery, caller: TaskCaller): Promise<CronTaskView[]> {
    return this.bus.request(Routes.schedulerCronList, { ...query, owner: listOwner(caller, query.owner) });
  }

  getCron(name: string, caller: TaskCaller): Promise<CronTaskDetail> {
    return this.bus.request(Routes.schedulerCronGet, byName(name, caller));
  }

  deleteCron(name: string, caller: TaskCaller): Promise<CronTaskView> {
    return this.bus.request(Routes.schedulerCronDelete, byName(name, caller));
  }
}

function byName(name: string, caller: TaskCaller): TaskNameRequest {
  const owner = nameOwner(caller);
  return owner === undefined ? { name } : { name, owner };
}
