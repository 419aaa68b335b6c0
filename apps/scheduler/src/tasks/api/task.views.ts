import type {
  CronTaskDetail,
  CronTaskView,
  DelayStatus,
  DelayTaskView,
  FireStatus,
  MisfirePolicy,
  TaskFireView,
  TaskTarget,
} from '@app/contracts';
import type { Prisma } from '@app/persistence';
import { nextDue } from '../domain/cron-schedule';

export type DelayTaskRow = Prisma.DelayTaskModel;
export type CronTaskRow = Prisma.CronTaskModel;
export type TaskFireRow = Prisma.TaskFireModel;

type TargetRow = Pick<
  DelayTaskRow,
  'target' | 'function_name' | 'params' | 'agent' | 'session_id' | 'message'
>;

export function toDelayView(row: DelayTaskRow): DelayTaskView {
  return {
    name: row.name,
    owner: row.owner,
    run_at: row.run_at.toISOString(),
    ...targetView(row),
    status: row.status as DelayStatus,
    misfire_policy: row.misfire_policy as MisfirePolicy,
    result: parseStored(row.result),
    error: row.error,
    executed_at: iso(row.executed_at),
    created_at: row.created_at.toISOString(),
  };
}

export function toCronView(row: CronTaskRow, now = new Date()): CronTaskView {
  return {
    name: row.name,
    owner: row.owner,
    cron_expr: row.cron_expr,
    timezone: row.timezone,
    ...targetView(row),
    enabled: row.enabled,
    until: iso(row.until),
    max_runs: row.max_runs,
    run_count: row.run_count,
    last_run_at: iso(row.last_run_at),
    last_status: row.last_status as FireStatus | null,
    next_run_at: row.enabled ? iso(nextRun(row, now)) : null,
    created_at: row.created_at.toISOString(),
  };
}

export function toCronDetail(row: CronTaskRow, fires: TaskFireRow[]): CronTaskDetail {
  return { ...toCronView(row), recent_fires: fires.map(toFireView) };
}

export function toFireView(row: TaskFireRow): TaskFireView {
  return {
    scheduled_at: row.scheduled_at.toISOString(),
    status: row.status as FireStatus,
    started_at: row.started_at.toISOString(),
    finished_at: iso(row.finished_at),
    lateness_ms: row.lateness_ms,
    result: parseStored(row.result),
    error: row.error,
  };
}

/** The next due time from now (the stored `next_run_at` is the fire watermark, possibly behind). */
function nextRun(row: CronTaskRow, now: Date): Date | null {
  const next = nextDue({ expr: row.cron_expr, timezone: row.timezone }, now);
  return next && (!row.until || next < row.until) ? next : null;
}

function targetView(row: TargetRow) {
  return {
    target: row.target as TaskTarget,
    function: row.function_name || null,
    params: JSON.parse(row.params) as Record<string, unknown>,
    agent: row.agent,
    session_id: row.session_id,
    message: row.message,
  };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function parseStored(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
