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

/** Creating a task may ask every function provider whether its function exists: a little slack. */
const SCHEDULER_TIMEOUT_MS = 10_000;

/** The /delays and /crons routes, relayed to the scheduler over NATS; the caller's principal owns what it creates. */
@Injectable()
export class TasksService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  createDelay(body: CreateDelayBody, owner: string): Promise<DelayTaskView> {
    return this.ask<CreateDelayRequest, DelayTaskView>(Subjects.schedulerDelayCreate, { ...body, owner });
  }

  listDelays(query: ListDelaysQuery, owner: string): Promise<DelayTaskView[]> {
    return this.ask<ListDelaysRequest, DelayTaskView[]>(Subjects.schedulerDelayList, { ...query, owner });
  }

  getDelay(name: string, owner: string): Promise<DelayTaskView> {
    return this.ask<TaskNameRequest, DelayTaskView>(Subjects.schedulerDelayGet, { name, owner });
  }

  cancelDelay(name: string, owner: string): Promise<DelayTaskView> {
    return this.ask<TaskNameRequest, DelayTaskView>(Subjects.schedulerDelayCancel, { name, owner });
  }

  createCron(body: CreateCronBody, owner: string): Promise<CronTaskView> {
    return this.ask<CreateCronRequest, CronTaskView>(Subjects.schedulerCronCreate, { ...body, owner });
  }

  listCrons(query: ListCronsQuery, owner: string): Promise<CronTaskView[]> {
    return this.ask<ListCronsRequest, CronTaskView[]>(Subjects.schedulerCronList, { ...query, owner });
  }

  getCron(name: string, owner: string): Promise<CronTaskDetail> {
    return this.ask<TaskNameRequest, CronTaskDetail>(Subjects.schedulerCronGet, { name, owner });
  }

  deleteCron(name: string, owner: string): Promise<CronTaskView> {
    return this.ask<TaskNameRequest, CronTaskView>(Subjects.schedulerCronDelete, { name, owner });
  }

  private ask<Q, R>(subject: string, request: Q): Promise<R> {
    return this.bus.request<R>(subject, request, { timeoutMs: SCHEDULER_TIMEOUT_MS });
  }
}
