import type { CronTaskDetail, CronTaskView, DelayTaskView, TaskFireView } from '@app/contracts';
import { nextDue } from '../domain/cron-schedule';
import type { CronTask, DelayTask, TaskFire, TaskTargetSpec } from '../domain/task';

export function toDelayView(task: DelayTask): DelayTaskView {
  return {
    name: task.name,
    owner: task.owner,
    run_at: task.run_at.toISOString(),
    ...targetView(task),
    status: task.status,
    misfire_policy: task.misfire_policy,
    result: task.result,
    error: task.error,
    executed_at: iso(task.executed_at),
    created_at: task.created_at.toISOString(),
  };
}

export function toCronView(task: CronTask, now = new Date()): CronTaskView {
  return {
    name: task.name,
    owner: task.owner,
    cron_expr: task.cron_expr,
    timezone: task.timezone,
    ...targetView(task),
    enabled: task.enabled,
    until: iso(task.until),
    max_runs: task.max_runs,
    run_count: task.run_count,
    last_run_at: iso(task.last_run_at),
    last_status: task.last_status,
    next_run_at: task.enabled ? iso(nextRun(task, now)) : null,
    created_at: task.created_at.toISOString(),
  };
}

export function toCronDetail(task: CronTask, fires: TaskFire[]): CronTaskDetail {
  return { ...toCronView(task), recent_fires: fires.map(toFireView) };
}

export function toFireView(fire: TaskFire): TaskFireView {
  return {
    scheduled_at: fire.scheduled_at.toISOString(),
    status: fire.status,
    started_at: fire.started_at.toISOString(),
    finished_at: iso(fire.finished_at),
    lateness_ms: fire.lateness_ms,
    result: fire.result,
    error: fire.error,
  };
}

/** The next due time from now (the stored `next_run_at` is the fire watermark, possibly behind). */
function nextRun(task: CronTask, now: Date): Date | null {
  const next = nextDue({ expr: task.cron_expr, timezone: task.timezone }, now);
  return next && (!task.until || next < task.until) ? next : null;
}

function targetView(task: TaskTargetSpec) {
  return {
    target: task.target,
    function: task.function_name || null,
    params: JSON.parse(task.params) as Record<string, unknown>,
    agent: task.agent,
    session_id: task.session_id,
    message: task.message,
  };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
