import {
  CreateCronBody,
  CreateDelayBody,
  DELAY_STATUSES,
  ListCronsQuery,
  ListDelaysQuery,
  TaskNameRequest,
} from '@app/contracts';
import { paramsFromDto } from '@app/functions';

// The scheduler functions' parameters as the model sees them. Each is a field of the REST body
// or query (contracts' DTOs), which declares its type, whether it is required, its choices, bounds,
// patterns and lengths: the JSON Schema derived from it is all that checks a call (ajv). Here are
// only the descriptions, and what the model is shown differently. What a schema cannot say (a
// real date, params that parse, a known time zone, several fields at once) is checked by the
// scheduler's domain (`task-input.ts`) for a function call and a REST call alike.

const FUNCTION = 'Function to call when due, e.g. send_message. Give either function or message.';
// The model writes JSON text; the REST body takes an object too.
const PARAMS = {
  description: 'The function\'s parameters as JSON, e.g. {"to":"alice","message":"stand-up in 5 minutes"}',
  type: 'string',
} as const;
const MESSAGE =
  'Instead of a function: an instruction for the agent, run as a new turn of this conversation when due (e.g. "remind the user to drink water")';

export const DelayCreateParams = paramsFromDto(CreateDelayBody, {
  name: { description: 'Task name, unique; letters, digits, _ . - (e.g. remind_standup)' },
  run_at: { description: 'When to run: ISO 8601 with an offset, e.g. 2026-12-25T09:00:00+08:00' },
  function: { description: FUNCTION },
  params: PARAMS,
  message: { description: MESSAGE },
  misfire_policy: {
    description:
      'If the scheduler was down at run_at: missed (default) or run_once (run late, within the catch-up window)',
  },
});
export type DelayCreateParams = InstanceType<typeof DelayCreateParams>;

// Paging of the *_list functions (not part of the REST query): a long list is read page by page;
// an observation cut short names the offset of its next row.
export const LIST_PAGE_DEFAULTS = { offset: 0, limit: 100 };
type ListPage = { offset?: number; limit?: number };
const PAGE = {
  offset: {
    description: 'Tasks to skip, for the next page',
    type: 'integer',
    min: 0,
    default: LIST_PAGE_DEFAULTS.offset,
  },
  limit: {
    description: 'Most tasks to return',
    type: 'integer',
    min: 1,
    max: 500,
    default: LIST_PAGE_DEFAULTS.limit,
  },
} as const;

export const DelayListParams = paramsFromDto<ListDelaysQuery, ListPage>(ListDelaysQuery, {
  status: { description: 'Only tasks in this status', enum: DELAY_STATUSES.filter((s) => s !== 'running') },
  ...PAGE,
});
export type DelayListParams = InstanceType<typeof DelayListParams>;

export const TaskNameParams = paramsFromDto(TaskNameRequest, { name: { description: 'The task name' } });
export type TaskNameParams = InstanceType<typeof TaskNameParams>;

export const CronCreateParams = paramsFromDto(CreateCronBody, {
  name: { description: 'Task name, unique; letters, digits, _ . - (e.g. daily_report)' },
  cron_expr: {
    description:
      "Cron expression: minute hour day-of-month month day-of-week, e.g. '0 9 * * *' is 09:00 daily (a 6th, leading field is seconds)",
  },
  timezone: { description: 'IANA time zone the expression is read in, e.g. Asia/Shanghai', default: 'UTC' },
  function: { description: FUNCTION },
  params: PARAMS,
  message: { description: MESSAGE },
  until: { description: 'Stop after this time: ISO 8601 with an offset (optional)' },
  max_runs: { description: 'Stop after this many runs; 0 means no limit', default: 0 },
});
export type CronCreateParams = InstanceType<typeof CronCreateParams>;

export const CronListParams = paramsFromDto<ListCronsQuery, ListPage>(ListCronsQuery, {
  name: { description: 'Only tasks whose name contains this' },
  ...PAGE,
});
export type CronListParams = InstanceType<typeof CronListParams>;
