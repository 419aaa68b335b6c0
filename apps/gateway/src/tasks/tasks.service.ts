import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type CreateCronBody,
  type CreateCronRequest,
  type CreateDelayBody,
  type CreateDelayRequest,
  type CronTaskDetail,
  type CronTaskView,
  type DelayTaskView,
  type ListCronsQuery,
  type ListCronsRequest,
  type ListDelaysQuery,
  type ListDelaysRequest,
  Subjects,
  type TaskNameRequest,
} from '@app/contracts';
import { listOwner, nameOwner, type TaskCaller } from './task-caller';

/** Creating a task may ask every function provider whether its function exists: a little slack. */
const SCHEDULER_TIMEOUT_MS = 10_000;

/**
 * The /delays and /crons routes, relayed to the scheduler over NATS. The caller's principal owns
 * what it creates; an admin sees and manages every principal's tasks (see `task-caller.ts`).
 */
@Injectable()
export class TasksService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  createDelay(body: CreateDelayBody, caller: TaskCaller): Promise<DelayTaskView> {
    return this.ask<CreateDelayRequest, DelayTaskView>(Subjects.schedulerDelayCreate, {
      ...body,
      owner: caller.principal,
    });
  }

  listDelays(query: ListDelaysQuery, caller: TaskCaller): Promise<DelayTaskView[]> {
    return this.ask<ListDelaysRequest, DelayTaskView[]>(
      Subjects.schedulerDelayList,
      { ...query, owner: listOwner(caller, query.owner) },
      true,
    );
  }

  getDelay(name: string, caller: TaskCaller): Promise<DelayTaskView> {
    return this.ask<TaskNameRequest, DelayTaskView>(Subjects.schedulerDelayGet, byName(name, caller), true);
  }

  cancelDelay(name: string, caller: TaskCaller): Promise<DelayTaskView> {
    return this.ask<TaskNameRequest, DelayTaskView>(Subjects.schedulerDelayCancel, byName(name, caller));
  }

  createCron(body: CreateCronBody, caller: TaskCaller): Promise<CronTaskView> {
    return this.ask<CreateCronRequest, CronTaskView>(Subjects.schedulerCronCreate, {
      ...body,
      owner: caller.principal,
    });
  }

  listCrons(query: ListCronsQuery, caller: TaskCaller): Promise<CronTaskView[]> {
    return this.ask<ListCronsRequest, CronTaskView[]>(
      Subjects.schedulerCronList,
      { ...query, owner: listOwner(caller, query.owner) },
      true,
    );
  }

  getCron(name: string, caller: TaskCaller): Promise<CronTaskDetail> {
    return this.ask<TaskNameRequest, CronTaskDetail>(Subjects.schedulerCronGet, byName(name, caller), true);
  }

  deleteCron(name: string, caller: TaskCaller): Promise<CronTaskView> {
    return this.ask<TaskNameRequest, CronTaskView>(Subjects.schedulerCronDelete, byName(name, caller));
  }

  /** Reads (`read`) are sent again once if the bus connection drops under them. */
  private ask<Q, R>(subject: string, request: Q, read = false): Promise<R> {
    return this.bus.request<R>(subject, request, { timeoutMs: SCHEDULER_TIMEOUT_MS, retryOnReconnect: read });
  }
}

function byName(name: string, caller: TaskCaller): TaskNameRequest {
  const owner = nameOwner(caller);
  return owner === undefined ? { name } : { name, owner };
}
