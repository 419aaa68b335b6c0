import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { ParameterSchema } from '@app/protocol';
import { IsScopes, type Scope } from './api-keys';
import { Usage } from './agent';
import { ErrorBody } from './errors';
import { FUNCTION_NAME_PATTERN } from './function-names';

export type { ParameterSchema, ParameterType as JsonSchemaType } from '@app/protocol';

/** What a function looks like from outside: the prompt, `GET /functions` and validation share it. */
export class FunctionDefinition {
  @IsString() name!: string;
  @IsString() description!: string;
  /** A JSON Schema object: `{type: 'object', properties, required}`. */
  @IsObject() parameters!: {
    type: 'object';
    properties: Record<string, ParameterSchema>;
    required: string[];
  };
  @IsOptional() @IsInt() timeout_ms?: number;
  /** Who serves it: `builtin`, `custom`, `scheduler`, … */
  @IsOptional() @IsString() provider?: string;
  /**
   * Sending the same call again is safe (it reads, or its effect happens once whatever the
   * repeats); absent means it is not, and a repeat must carry the first attempt's idempotency key.
   */
  @IsOptional() @IsBoolean() idempotent?: boolean;
}

/** `GET /api/v1/functions`. */
export class FunctionList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => FunctionDefinition) functions!: FunctionDefinition[];
}

export class FunctionResult {
  @IsOptional() @Allow() data?: unknown;
  @IsOptional() @IsString() markdown?: string;
  @IsOptional() @IsString() message?: string;
  /**
   * Model tokens the call spent for its caller (an agent called as a function): the calling run
   * counts them in its usage, its budgets and its key's quota, as if it had spent them itself.
   */
  @IsOptional() @ValidateNested() @Type(() => Usage) usage?: Usage;
}

/**
 * The provider of agents served as functions (their executors' queue group): a call of one is an
 * agent's run, charged to its caller's key as a chat turn is.
 */
export const AGENT_FUNCTION_PROVIDER = 'agents';
/** An agent served as a function is called `agent_<name>`. */
export const AGENT_FUNCTION_PREFIX = 'agent_';

export { FUNCTION_NAME_PATTERN };
export const CALL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** An idempotency key (`<run_id>:<step>:<call index>`, an `Idempotency-Key` header): visible ASCII. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The longest chain of agents a call may carry: far above any depth limit an operator sets. */
export const MAX_AGENT_CHAIN = 32;

export class CallerDto {
  @IsOptional() @IsString() @MaxLength(128) agent?: string;
  @IsOptional() @IsString() @MaxLength(64) run_id?: string;
  @IsOptional() @IsString() @MaxLength(64) session_id?: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** The API key the work is done for: what it starts counts against that key's limits. */
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
  /** `agent`, `api`, `scheduler` */
  @IsOptional() @IsString() @MaxLength(32) kind?: string;
  /**
   * The scopes of the API key the call is made for: a function that manages the caller's
   * resources (the scheduler's delay_* and cron_*) allows what they allow, and nothing without them.
   */
  @IsOptional() @IsScopes() scopes?: Scope[];
  /**
   * The agents the call comes through, outermost first (the calling agent last): an agent called
   * as a function refuses a chain that already holds it, or one deeper than the platform allows.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_AGENT_CHAIN)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  chain?: string[];
  /** Tokens the calling run may still spend (absent: no limit); a child run spends no more. */
  @IsOptional() @IsInt() @Min(0) tokens_left?: number;
  /** USD the calling run may still spend (absent: no limit known); a child run spends no more. */
  @IsOptional() @IsNumber() @Min(0) cost_left_usd?: number;
}

/** Body of `fn.exec.<name>`. The deadline is absolute (epoch ms) so it survives queueing. */
export class FnExecRequest {
  @IsObject() params!: Record<string, unknown>;

  @IsOptional() @IsInt() @Min(0) deadline_ms?: number;

  @IsOptional() @IsInt() @Min(1) @Max(3_600_000) timeout_ms?: number;

  @IsOptional() @ValidateNested() @Type(() => CallerDto) caller?: CallerDto;

  /** The run's allow-list: a provider refuses any name outside it (defence in depth). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(FUNCTION_NAME_PATTERN, { each: true })
  allowed_tools?: string[];

  /** Names the call for `fn.cancel` and for its FunctionCall record. */
  @IsOptional() @IsString() @Matches(CALL_ID_PATTERN) call_id?: string;

  /**
   * Calls with the same key (for the same function and principal) run once: a repeat gets the
   * first attempt's recorded reply, or waits for it while it runs.
   */
  @IsOptional() @IsString() @Matches(IDEMPOTENCY_KEY_PATTERN) idempotency_key?: string;
}

/**
 * The reply to `fn.exec.<name>`. One rule decides between a reply and a bus error:
 * - a provider that could read the FnExecRequest always answers with an FnExecReply, on the bus's
 *   success envelope. `status: 'error'` then carries why the call failed, as `error.code`:
 *   `function_error` (the function itself failed), `invalid_params` (details list every bad field),
 *   `forbidden` (outside `allowed_tools`), `not_found` (the name was just unplugged), `timeout`,
 *   `cancelled`, `unavailable` (the provider is busy or stopping). It is never retried: a failed
 *   call may have had effects, and its error goes back to the caller (the AI) to decide.
 * - the bus's error envelope is left for what no provider judged: a request that is not an
 *   FnExecRequest (`invalid_params`), nobody serving the name right now (`unavailable`: only a
 *   catalogue can tell an unknown name, `not_found`, from a provider that is down), no reply before
 *   the deadline (`timeout`, e.g. the provider died).
 */
export type FnExecReply =
  | { status: 'success'; result: FunctionResult; elapsed_ms: number }
  | { status: 'error'; error: ErrorBody; elapsed_ms: number };

/** FnExecReply as one object, for the HTTP API (`POST /api/v1/functions/:name/invoke`). */
export class FnExecReplyView {
  @IsIn(['success', 'error']) status!: 'success' | 'error';
  /** With `success`. */
  @IsOptional() @ValidateNested() @Type(() => FunctionResult) result?: FunctionResult;
  /** With `error`: why the call failed. */
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
  @IsInt() elapsed_ms!: number;
}

/**
 * Progress of an `fn.exec` call, when its caller asks for it: the provider that took the call
 * says so unless it answers within a few milliseconds, then every `FN_HEARTBEAT_MS` while the call
 * runs, so a caller learns within
 * `FN_SILENCE_MS` that the provider died with its call.
 */
export interface FnExecProgress {
  provider: string;
  instance: string;
}
export const FN_HEARTBEAT_MS = 1_000;
export const FN_SILENCE_MS = 3_000;

/** Reply of every provider to `fn.catalog`. */
export interface FnCatalogReply {
  provider: string;
  instance: string;
  functions: FunctionDefinition[];
}

/** Published on `fn.announce` when a provider starts, when its functions change and when it stops. */
export interface FnAnnounce extends FnCatalogReply {
  event: 'started' | 'changed' | 'stopped';
}

/** Body of `POST /api/v1/functions/:name/invoke`. */
export class InvokeFunctionBody {
  @IsOptional() @IsObject() params?: Record<string, unknown>;
  /** The call's time limit; the function's own default when absent. */
  @IsOptional() @IsInt() @Min(1) @Max(3_600_000) timeout_ms?: number;
}

/**
 * Body of `fn.invoke`: an API client's direct call, relayed by an executor (the gateway may not
 * publish `fn.exec.*`). The reply follows FnExecReply's rule.
 */
export class FnInvokeRequest {
  @IsString() @Matches(FUNCTION_NAME_PATTERN) name!: string;
  @IsObject() params!: Record<string, unknown>;
  @IsInt() @Min(1) @Max(3_600_000) timeout_ms!: number;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** The API key the call is made for. */
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
  @IsOptional() @IsScopes() scopes?: Scope[];
  /** The client's `Idempotency-Key`, passed on as the call's `idempotency_key`. */
  @IsOptional() @IsString() @Matches(IDEMPOTENCY_KEY_PATTERN) idempotency_key?: string;
}

/** Body of `fn.cancel`. */
export class FnCancel {
  @IsString() @Matches(CALL_ID_PATTERN) call_id!: string;
}
