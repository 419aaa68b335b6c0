import type { DelayStatus, FireStatus, MisfirePolicy, TaskTarget } from '@app/contracts';

// The scheduler's tasks as its services see them. The repositories map database rows to these
// and back; nothing above them knows how (or where) a task is stored.

export type TaskKind = 'delay' | 'cron';

/** What a task runs: a function with its params (JSON text, as given), or an agent turn. */
export interface TaskTargetSpec {
  target: TaskTarget;
  function_name: string;
  params: string;
  agent: string | null;
  session_id: string | null;
  message: string | null;
  /** The trace of the request that created the task: its fires link back to it. */
  traceparent?: string | null;
}

/** A one-off task before it is stored. */
export interface NewDelayTask extends TaskTargetSpec {
  name: string;
  owner: string;
  /** The API key that created it: the agent runs it fires count against that key's limits. */
  key_id: string | null;
  run_at: Date;
  misfire_policy: MisfirePolicy;
}

/** A recurring task before it is stored; `next_run_at` is its first due time. */
export interface NewCronTask extends TaskTargetSpec {
  name: string;
  owner: string;
  /** The API key that created it: the agent runs it fires count against that key's limits. */
  key_id: string | null;
  cron_expr: string;
  timezone: string;
  until: Date | null;
  max_runs: number;
  next_run_at: Date;
}

export interface DelayTask extends NewDelayTask {
  id: string;
  traceparent: string | null;
  status: DelayStatus;
  /** How late the task may still run after a scheduler outage (policy `run_once`). */
  catchup_window_ms: number;
  /** What the target returned, as stored (a long one is cut to a preview). */
  result: unknown;
  error: string | null;
  executed_at: Date | null;
  created_at: Date;
}

export interface CronTask extends Omit<NewCronTask, 'next_run_at'> {
  id: string;
  traceparent: string | null;
  enabled: boolean;
  run_count: number;
  last_run_at: Date | null;
  last_status: FireStatus | null;
  /** The fire watermark: every due time before it has a fire. */
  next_run_at: Date | null;
  created_at: Date;
}

/** One due time of a task, whatever became of it. */
export interface TaskFire {
  id: string;
  task_kind: TaskKind;
  task_id: string;
  scheduled_at: Date;
  status: FireStatus;
  result: unknown;
  error: string | null;
  lateness_ms: number | null;
  started_at: Date;
  finished_at: Date | null;
}

/** A delay's due time claimed by this fire: the task as it was moved to running. */
export interface DelayClaim {
  task: DelayTask;
  fireId: string;
}

/** A cron tick claimed by this fire: the task as its run was counted. */
export interface CronClaim {
  task: CronTask;
  fireId: string;
}
