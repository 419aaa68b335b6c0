import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CronTaskView,
  type DelayTaskView,
  hasScope,
  type Scope,
  TaskFunctionNames,
} from '@app/contracts';
import type { AgentFunction, FunctionCaller, FunctionResult } from '@app/functions';
import { CronTasksService } from './cron-tasks.service';
import { DelayTasksService } from './delay-tasks.service';
import type { TaskPage } from '../store/repository.util';
import {
  CronCreateParams,
  CronListParams,
  DelayCreateParams,
  DelayListParams,
  LIST_PAGE_DEFAULTS,
  TaskNameParams,
} from './task-function.params';

/**
 * The scheduler's built-in functions: the model schedules, lists and cancels its caller's tasks.
 * Each one needs the scope its REST route needs (`tasks:write` to create, cancel or delete,
 * `tasks:read` to list), checked here against the scopes the call carries, so that whoever calls
 * (an agent run, a direct invocation, a fire) can do no more than the caller's key; then it makes
 * one service call, as the REST routes do. Its parameters were checked against their JSON Schema,
 * derived from the REST DTOs (`task-function.params.ts`), before it runs.
 */
@Injectable()
export class TaskFunctions {
  constructor(
    @Inject(DelayTasksService) private readonly delays: DelayTasksService,
    @Inject(CronTasksService) private readonly crons: CronTasksService,
  ) {}

  all(): AgentFunction[] {
    return [
      fn(
        TaskFunctionNames.delayCreate,
        'Schedule a one-off task: call a function (or run an agent turn) once, at run_at.',
        DelayCreateParams,
        'tasks:write',
        (p, caller) => this.delayCreate(p, caller),
      ),
      fn(
        TaskFunctionNames.delayList,
        'List one-off tasks, optionally only those in one status.',
        DelayListParams,
        'tasks:read',
        (p, caller) => this.delayList(p, caller),
      ),
      fn(
        TaskFunctionNames.delayCancel,
        'Cancel a pending one-off task by name.',
        TaskNameParams,
        'tasks:write',
        (p, caller) => this.delayCancel(p, caller),
      ),
      fn(
        TaskFunctionNames.cronCreate,
        'Schedule a recurring task: call a function (or run an agent turn) on a cron schedule.',
        CronCreateParams,
        'tasks:write',
        (p, caller) => this.cronCreate(p, caller),
      ),
      fn(
        TaskFunctionNames.cronList,
        'List recurring tasks, optionally filtered by name.',
        CronListParams,
        'tasks:read',
        (p, caller) => this.cronList(p, caller),
      ),
      fn(
        TaskFunctionNames.cronDelete,
        'Delete a recurring task by name; it stops firing at once.',
        TaskNameParams,
        'tasks:write',
        (p, caller) => this.cronDelete(p, caller),
      ),
    ];
  }

  private async delayCreate(p: DelayCreateParams, caller: FunctionCaller): Promise<FunctionResult> {
    const task = await this.delays.create({
      ...p,
      ...agentTurnDefaults(p, caller),
      owner: caller.principal ?? '',
      ...(caller.key_id ? { key_id: caller.key_id } : {}),
    });
    return { message: `delay '${task.name}' scheduled for ${task.run_at}`, data: delayRow(task) };
  }

  private async delayList(p: DelayListParams, caller: FunctionCaller): Promise<FunctionResult> {
    const page = pageOf(p);
    const { tasks, total } = await this.delays.page({ status: p.status, owner: caller.principal }, page);
    return { message: pageMessage('delay', tasks.length, total, page), data: tasks.map(delayRow) };
  }

  private async delayCancel(p: TaskNameParams, caller: FunctionCaller): Promise<FunctionResult> {
    const task = await this.delays.cancel(p.name, caller.principal);
    return { message: `delay '${task.name}' cancelled`, data: delayRow(task) };
  }

  private async cronCreate(p: CronCreateParams, caller: FunctionCaller): Promise<FunctionResult> {
    const task = await this.crons.create({
      ...p,
      ...agentTurnDefaults(p, caller),
      owner: caller.principal ?? '',
      ...(caller.key_id ? { key_id: caller.key_id } : {}),
    });
    return { message: `cron '${task.name}' created; next run at ${task.next_run_at}`, data: cronRow(task) };
  }

  private async cronList(p: CronListParams, caller: FunctionCaller): Promise<FunctionResult> {
    const page = pageOf(p);
    const { tasks, total } = await this.crons.page({ name: p.name, owner: caller.principal }, page);
    return { message: pageMessage('cron', tasks.length, total, page), data: tasks.map(cronRow) };
  }

  private async cronDelete(p: TaskNameParams, caller: FunctionCaller): Promise<FunctionResult> {
    const task = await this.crons.delete(p.name, caller.principal);
    return { message: `cron '${task.name}' deleted`, data: cronRow(task) };
  }
}

function fn<P extends object>(
  name: string,
  description: string,
  params: new () => P,
  scope: Scope,
  run: (params: P, caller: FunctionCaller) => Promise<FunctionResult>,
): AgentFunction {
  const agentFunction: AgentFunction<P> = {
    name,
    description,
    params,
    // Lists only read; creating, cancelling and deleting act on a task's unique name, so a repeat
    // finds the task already there (a conflict) or already gone, and never makes a second one.
    idempotent: true,
    execute: (p, ctx) => {
      requireScope(name, scope, ctx.caller);
      return run(p, ctx.caller);
    },
  };
  return agentFunction as AgentFunction;
}

/** A caller that sent no scopes may do nothing here: a path that forgot them cannot widen what it may do. */
function requireScope(name: string, scope: Scope, caller: FunctionCaller): void {
  if (hasScope(caller.scopes, scope)) return;
  throw new AppError(
    'forbidden',
    `${name} needs the '${scope}' scope, which the caller's API key lacks; nothing was done`,
    { missing_scope: scope },
  );
}

function pageOf(p: { offset?: number; limit?: number }): TaskPage {
  return { offset: p.offset ?? LIST_PAGE_DEFAULTS.offset, limit: p.limit ?? LIST_PAGE_DEFAULTS.limit };
}

/** `3 delay task(s)`, or where a page sits in a longer list: `100 of 250 delay task(s), from offset 0`. */
function pageMessage(kind: 'delay' | 'cron', shown: number, total: number, page: TaskPage): string {
  if (page.offset === 0 && shown === total) return `${total} ${kind} task(s)`;
  return `${shown} of ${total} ${kind} task(s), from offset ${page.offset}`;
}

/** A task that runs an agent turn goes back to the conversation (and agent) that scheduled it. */
function agentTurnDefaults(
  body: { message?: string; session_id?: string; agent?: string },
  caller: FunctionCaller,
) {
  if (!body.message) return {};
  return { session_id: body.session_id ?? caller.session_id, agent: body.agent ?? caller.agent };
}

/** What the model needs to see of a task: flat rows, cheap in tokens (TOON tables). */
function delayRow(t: DelayTaskView) {
  return {
    name: t.name,
    run_at: t.run_at,
    target: t.function ?? 'agent',
    status: t.status,
    executed_at: t.executed_at,
    error: t.error,
  };
}

function cronRow(t: CronTaskView) {
  return {
    name: t.name,
    cron_expr: t.cron_expr,
    timezone: t.timezone,
    target: t.function ?? 'agent',
    enabled: t.enabled,
    run_count: t.run_count,
    max_runs: t.max_runs,
    until: t.until,
    next_run_at: t.next_run_at,
    last_status: t.last_status,
  };
}
