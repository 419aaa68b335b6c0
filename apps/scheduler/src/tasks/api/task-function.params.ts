import { DELAY_STATUSES, MISFIRE_POLICIES } from '@app/contracts';
import { Param } from '@app/functions';

// The seed's parameters (000 §2.4) as the model sees them; the formats are checked by the
// contracts' DTOs (CreateDelayBody, CreateCronBody) right after, with one message per bad field.

const FUNCTION = 'Function to call when due, e.g. send_message. Give either function or message.';
const PARAMS = 'The function\'s parameters as JSON, e.g. {"to":"alice","message":"stand-up in 5 minutes"}';
const MESSAGE =
  'Instead of a function: an instruction for the agent, run as a new turn of this conversation when due (e.g. "remind the user to drink water")';

export class DelayCreateParams {
  @Param({ description: 'Task name, unique; letters, digits, _ . - (e.g. remind_standup)', required: true })
  name!: string;
  @Param({
    description: 'When to run: ISO 8601 with an offset, e.g. 2026-12-25T09:00:00+08:00',
    required: true,
  })
  run_at!: string;
  @Param({ description: FUNCTION }) function?: string;
  @Param({ description: PARAMS }) params?: string;
  @Param({ description: MESSAGE }) message?: string;
  @Param({
    description:
      'If the scheduler was down at run_at: missed (default) or run_once (run late, within the catch-up window)',
    enum: MISFIRE_POLICIES,
  })
  misfire_policy?: string;
}

// Paging of the *_list functions: a long list is read page by page; an observation cut short
// names the offset of its next row.
export const LIST_PAGE_DEFAULTS = { offset: 0, limit: 100 };
const OFFSET = {
  description: 'Tasks to skip, for the next page',
  type: 'integer',
  min: 0,
  default: LIST_PAGE_DEFAULTS.offset,
} as const;
const LIMIT = {
  description: 'Most tasks to return',
  type: 'integer',
  min: 1,
  max: 500,
  default: LIST_PAGE_DEFAULTS.limit,
} as const;

export class DelayListParams {
  @Param({ description: 'Only tasks in this status', enum: DELAY_STATUSES.filter((s) => s !== 'running') })
  status?: string;
  @Param(OFFSET) offset?: number;
  @Param(LIMIT) limit?: number;
}

export class TaskNameParams {
  @Param({ description: 'The task name', required: true }) name!: string;
}

export class CronCreateParams {
  @Param({ description: 'Task name, unique; letters, digits, _ . - (e.g. daily_report)', required: true })
  name!: string;
  @Param({
    description:
      "Cron expression: minute hour day-of-month month day-of-week, e.g. '0 9 * * *' is 09:00 daily (a 6th, leading field is seconds)",
    required: true,
  })
  cron_expr!: string;
  @Param({ description: 'IANA time zone the expression is read in, e.g. Asia/Shanghai', default: 'UTC' })
  timezone?: string;
  @Param({ description: FUNCTION }) function?: string;
  @Param({ description: PARAMS }) params?: string;
  @Param({ description: MESSAGE }) message?: string;
  @Param({ description: 'Stop after this time: ISO 8601 with an offset (optional)' }) until?: string;
  @Param({ description: 'Stop after this many runs; 0 means no limit', type: 'integer', min: 0, default: 0 })
  max_runs?: number;
}

export class CronListParams {
  @Param({ description: 'Only tasks whose name contains this' }) name?: string;
  @Param(OFFSET) offset?: number;
  @Param(LIMIT) limit?: number;
}
