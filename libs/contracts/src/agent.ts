import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsScopes, type Scope } from './api-keys';
import { ErrorBody } from './errors';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_MESSAGE_CHARS = 32_000;

/** Body of `agent.run`: one conversation turn. The gateway may pre-assign the run id (for SSE). */
export class AgentRunRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) run_id?: string;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** The caller's scopes: the run's function calls may do no more than they allow. */
  @IsOptional() @IsScopes() scopes?: Scope[];
  /** Publish step events on `agent.events.<run_id>` while running. */
  @IsOptional() @IsBoolean() stream?: boolean;
}

/** Body of `POST /api/v1/chat`. */
export class ChatRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  /** Answer with server-sent events instead of one JSON object. */
  @IsOptional() @IsBoolean() stream?: boolean;
}

export const FINISH_REASONS = [
  'final',
  'max_steps',
  'max_tool_calls',
  'budget',
  'timeout',
  'parse_error',
  'cancelled',
  'error',
  'awaiting_approval',
  'rejected',
] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export class FunctionCallSummary {
  @IsString() name!: string;
  @IsIn(['success', 'error']) status!: 'success' | 'error';
  @Allow() result!: unknown;
}

export class Usage {
  @IsInt() @Min(0) prompt_tokens!: number;
  @IsInt() @Min(0) completion_tokens!: number;
}

/** The chat response (DESIGN §8), also the reply of `agent.run`. */
export class AgentRunReply {
  @IsString() session_id!: string;
  @IsString() run_id!: string;
  @IsString() reply!: string;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => FunctionCallSummary)
  function_calls!: FunctionCallSummary[];
  @IsIn(FINISH_REASONS) finish_reason!: FinishReason;
  @ValidateNested() @Type(() => Usage) usage!: Usage;
  /**
   * When the platform could not serve the run (`finish_reason: "error"` because its model is not
   * configured, unreachable or refused the call): the code the gateway answers with (503
   * `unavailable`, 502 `upstream_error`), the provider's status and code in `details`.
   */
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
}

/** The events of a run, in the order they can come; also the SSE event names of the chat API. */
export const AGENT_EVENT_TYPES = [
  'run_start',
  'thought',
  'tool_call',
  'tool_result',
  'plan',
  'step',
  'delta',
  'run_end',
] as const;
export type AgentEventType = (typeof AGENT_EVENT_TYPES)[number];

export interface AgentEvent {
  type: AgentEventType;
  run_id: string;
  seq: number;
  data: unknown;
}
