import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { ID_PATTERN, MAX_MESSAGE_CHARS, NAME_PATTERN } from './agent';
import { PRINCIPAL_PATTERN } from './api-keys';
import { IsIsoWithOffset, IsTimeZone } from './dates';
import { FUNCTION_NAME_PATTERN } from './functions';

/** Task names appear in URLs (`/delays/:name`) and in the model's replies: short, no spaces. */
export const TASK_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{0,63}$/u;
export const MAX_PARAMS_CHARS = 64_000;

/**
 * `refused`: the task was not run, because the API key that created it was revoked or deleted
 * (`error` says which). `unknown`: the fire was interrupted (its scheduler stopped while the target ran) and no record
 * of the function call says how it ended: it may have run, in part or in full, or not at all.
 */
export const DELAY_STATUSES = [
  'pending',
  'running',
  'completed',
  'failed',
  'cancelled',
  'missed',
  'refused',
  'unknown',
] as const;
export type DelayStatus = (typeof DELAY_STATUSES)[number];
export const FIRE_STATUSES = ['running', 'completed', 'failed', 'missed', 'refused', 'unknown'] as const;
export type FireStatus = (typeof FIRE_STATUSES)[number];
/** What happens to a delay that was due while no scheduler ran . */
export const MISFIRE_POLICIES = ['missed', 'run_once'] as const;
export type MisfirePolicy = (typeof MISFIRE_POLICIES)[number];
export type TaskTarget = 'function' | 'agent';

const TASK_NAME_RULE = 'must be 1-64 letters or digits, then letters, digits, "_", "." or "-" (no spaces)';
export const JSON_PARAMS_RULE =
  'must be a JSON object (or its JSON text), e.g. {"to":"alice","message":"hi"}';

/** `params` is JSON text (as a model writes it); a JSON object is accepted too (REST bodies). */
function IsJsonParams(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isJsonParams',
      validator: {
        validate: (value) => parseTaskParams(value) !== undefined,
        defaultMessage: () => JSON_PARAMS_RULE,
      },
    },
    {
      ...options,
      context: { jsonSchema: { type: ['object', 'string'], maxLength: MAX_PARAMS_CHARS } },
    },
  );
}

/** The function parameters of a task as an object, or undefined when they are not a JSON object. */
export function parseTaskParams(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    if (value.length > MAX_PARAMS_CHARS) return undefined;
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return parsed as Record<string, unknown>;
}

/** What a task runs when due: a function (`function` + `params`) or an agent turn (`message`). */
class TaskTargetFields {
  @IsOptional()
  @IsString()
  @Matches(FUNCTION_NAME_PATTERN, { message: 'must be a function name in snake_case, e.g. send_message' })
  function?: string;

  @IsOptional() @IsJsonParams() params?: string | Record<string, unknown>;

  /** An agent turn instead of a function: this message is sent to the agent on `session_id`. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message?: string;

  @IsOptional() @IsString() @Matches(NAME_PATTERN, { message: 'must be an agent name' }) agent?: string;

  @IsOptional() @IsString() @Matches(ID_PATTERN, { message: 'must be a session id' }) session_id?: string;
}

/**
 * The scheduler's own functions (the model schedules, lists and cancels its caller's tasks with
 * them), each served on `fn.exec.<name>` by the scheduler.
 */
export const TaskFunctionNames = {
  delayCreate: 'delay_create',
  delayList: 'delay_list',
  delayCancel: 'delay_cancel',
  cronCreate: 'cron_create',
  cronList: 'cron_list',
  cronDelete: 'cron_delete',
} as const;

/** Body of `POST /api/v1/delays`, also the parameters of `delay_create`. */
export class CreateDelayBody extends TaskTargetFields {
  @IsString() @Matches(TASK_NAME_PATTERN, { message: TASK_NAME_RULE }) name!: string;
  @IsString() @IsIsoWithOffset() run_at!: string;
  @IsOptional()
  @IsIn(MISFIRE_POLICIES, { message: `must be one of ${MISFIRE_POLICIES.join(', ')}` })
  misfire_policy?: MisfirePolicy;
}

/** Body of `POST /api/v1/crons`, also the parameters of `cron_create`. */
export class CreateCronBody extends TaskTargetFields {
  @IsString() @Matches(TASK_NAME_PATTERN, { message: TASK_NAME_RULE }) name!: string;
  @IsString() @MinLength(1) @MaxLength(128) cron_expr!: string;
  /** IANA time zone the expression is read in, e.g. Asia/Shanghai. */
  @IsOptional() @IsString() @MaxLength(64) @IsTimeZone() timezone?: string;
  @IsOptional() @IsString() @IsIsoWithOffset() until?: string;
  @IsOptional() @IsInt({ message: 'must be a whole number (0 = no limit)' }) @Min(0) max_runs?: number;
}

const OWNER_RULE = 'must be a principal: 1-128 letters, digits or _ . : @ -';

/** `?owner=` picks one principal's tasks: an admin's filter (anyone else sees only their own). */
class OwnerFilter {
  @IsOptional() @IsString() @Matches(PRINCIPAL_PATTERN, { message: OWNER_RULE }) owner?: string;
}

export class ListDelaysQuery extends OwnerFilter {
  @IsOptional()
  @IsIn(DELAY_STATUSES, { message: `must be one of ${DELAY_STATUSES.join(', ')}` })
  status?: DelayStatus;
}

export class ListCronsQuery extends OwnerFilter {
  @IsOptional() @IsString() @MaxLength(64) name?: string;
}

// The `*Request` messages add the owner: the caller's principal, set by the gateway or the
// function host, never taken from a body.

export class CreateDelayRequest extends CreateDelayBody {
  @IsOptional() @IsString() @MaxLength(128) owner?: string;
  /** The API key that creates the task: the agent runs it fires counts against that key's limits. */
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
}

export class CreateCronRequest extends CreateCronBody {
  @IsOptional() @IsString() @MaxLength(128) owner?: string;
  /** The API key that creates the task: the agent runs it fires counts against that key's limits. */
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
}

/** Without an owner (an admin, or authentication off), every owner's tasks are listed. */
export class ListDelaysRequest extends ListDelaysQuery {}

export class ListCronsRequest extends ListCronsQuery {}

/** Body of `scheduler.{delays,crons}.{get,cancel,delete}`; without an owner, any owner's task is found. */
export class TaskNameRequest {
  @IsString() @MinLength(1) @MaxLength(64) name!: string;
  @IsOptional() @IsString() @MaxLength(128) owner?: string;
}

// The views below: optional fields are present, possibly null.

class TaskTargetView {
  @IsIn(['function', 'agent']) target!: TaskTarget;
  @IsOptional() @IsString() function!: string | null;
  @IsObject() params!: Record<string, unknown>;
  @IsOptional() @IsString() agent!: string | null;
  @IsOptional() @IsString() session_id!: string | null;
  @IsOptional() @IsString() message!: string | null;
}

export class DelayTaskView extends TaskTargetView {
  @IsString() name!: string;
  @IsString() owner!: string;
  @IsString() run_at!: string;
  @IsIn(DELAY_STATUSES) status!: DelayStatus;
  @IsIn(MISFIRE_POLICIES) misfire_policy!: MisfirePolicy;
  @IsOptional() @Allow() result!: unknown;
  @IsOptional() @IsString() error!: string | null;
  @IsOptional() @IsString() executed_at!: string | null;
  @IsString() created_at!: string;
}

export class CronTaskView extends TaskTargetView {
  @IsString() name!: string;
  @IsString() owner!: string;
  @IsString() cron_expr!: string;
  @IsString() timezone!: string;
  @IsBoolean() enabled!: boolean;
  @IsOptional() @IsString() until!: string | null;
  @IsInt() max_runs!: number;
  @IsInt() run_count!: number;
  @IsOptional() @IsString() last_run_at!: string | null;
  @IsOptional() @IsIn(FIRE_STATUSES) last_status!: FireStatus | null;
  @IsOptional() @IsString() next_run_at!: string | null;
  @IsString() created_at!: string;
}

/** One due time of a task and what became of it. */
export class TaskFireView {
  @IsString() scheduled_at!: string;
  @IsIn(FIRE_STATUSES) status!: FireStatus;
  @IsString() started_at!: string;
  @IsOptional() @IsString() finished_at!: string | null;
  @IsOptional() @IsInt() lateness_ms!: number | null;
  @IsOptional() @Allow() result!: unknown;
  @IsOptional() @IsString() error!: string | null;
}

export class CronTaskDetail extends CronTaskView {
  @IsArray() @ValidateNested({ each: true }) @Type(() => TaskFireView) recent_fires!: TaskFireView[];
}

/** `GET /api/v1/delays`. */
export class DelayList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => DelayTaskView) delays!: DelayTaskView[];
}

/** `GET /api/v1/crons`. */
export class CronList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => CronTaskView) crons!: CronTaskView[];
}
