import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsScopes, type Scope } from './api-keys';
import { ErrorBody } from './errors';
import { PendingApproval } from './approvals';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_MESSAGE_CHARS = 32_000;
/** A caller-given history (a stateless turn) is at most this many messages. */
export const MAX_HISTORY_MESSAGES = 500;
/** Names of tools a caller runs itself: OpenAI's rule for function names. */
export const CLIENT_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** `call_<run id>_<index>`: the id of a client tool call names the run that waits for its result. */
export const CLIENT_CALL_ID_PATTERN = /^call_([A-Za-z0-9_-]{1,64})_(\d{1,4})$/;

/** One earlier message of a conversation the caller holds itself. */
export class HistoryMessage {
  @IsIn(['user', 'assistant']) role!: 'user' | 'assistant';
  @IsString() @MaxLength(MAX_MESSAGE_CHARS) content!: string;
}

/** A tool the caller runs itself: offered to the model next to the agent's functions. */
export class ClientTool {
  @IsString() @Matches(CLIENT_TOOL_NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(4_000) description?: string;
  /** JSON Schema of the arguments object. */
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
}

/** Steps a caller's plan may have, whatever its agent's `max_steps` (at most 100). */
export const MAX_PLAN_STEPS = 100;

/** One step of a caller's plan: a function and its parameters. */
export class ClientPlanStep {
  @IsOptional() @IsString() @MaxLength(1_000) description?: string;
  @IsString() @MinLength(1) @MaxLength(64) tool!: string;
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
}

/** A plan written by the caller, run like a model's plan (step policy, allow-list, parameter checks). */
export class ClientPlan {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PLAN_STEPS)
  @ValidateNested({ each: true })
  @Type(() => ClientPlanStep)
  steps!: ClientPlanStep[];
}

/** The caller's result of one client tool call. */
export class ClientToolResult {
  @IsString() @Matches(CLIENT_CALL_ID_PATTERN) tool_call_id!: string;
  @IsString() @MaxLength(MAX_MESSAGE_CHARS) content!: string;
}

/**
 * Body of `agent.run`: one conversation turn. The gateway may pre-assign the run id (for SSE).
 * - `session_id` continues a session; without it a new one is opened, holding `history` when
 *   the caller holds the conversation itself (a stateless turn).
 * - `instructions` are added to the agent's system prompt for this turn only.
 * - `client_tools`: a call to one of them pauses the run (`client_tool_calls`); `tool_results`
 *   answer those calls and continue in the paused run's session (`message` may then be empty).
 */
export class AgentRunRequest {
  @ValidateIf(
    (r: AgentRunRequest) =>
      (r.tool_results === undefined && r.plan === undefined) || (r.message ?? '') !== '',
  )
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MESSAGE_CHARS)
  message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) run_id?: string;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** The API key the work is done for: what it starts counts against that key's limits. */
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
  /** The caller's scopes: the run's function calls may do no more than they allow. */
  @IsOptional() @IsScopes() scopes?: Scope[];
  /** Publish step events on `agent.events.<run_id>` while running. */
  @IsOptional() @IsBoolean() stream?: boolean;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HISTORY_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => HistoryMessage)
  history?: HistoryMessage[];

  @IsOptional() @IsString() @MaxLength(MAX_MESSAGE_CHARS) instructions?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => ClientTool)
  client_tools?: ClientTool[];

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => ClientToolResult)
  tool_results?: ClientToolResult[];

  /** Where the message was routed, when its session had a run going: the new run's trace opens with it. */
  @IsOptional() @IsObject() routing_decision?: RoutingDecision;

  /** The caller's plan: the run carries it out instead of having the model write one (`message` is then its goal). */
  @IsOptional() @ValidateNested() @Type(() => ClientPlan) plan?: ClientPlan;
}

export const ROUTINGS = ['join', 'new', 'auto'] as const;
export type Routing = (typeof ROUTINGS)[number];

/** Where a message without a run id went while its session had a run going, and why. */
export interface RoutingDecision {
  decision: 'join' | 'new';
  /** `join`, `new`: the caller's choice; `auto`: the model's answer. */
  routing: 'join' | 'new' | 'auto';
  reason: string;
}

/** Body of `POST /api/v1/chat`. */
export class ChatRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  /**
   * A run of the caller's: while it runs the message joins it (read before its next model step);
   * once it has ended the message starts a new run in its session, told what that run did.
   */
  @IsOptional() @IsString() @Matches(ID_PATTERN) run_id?: string;
  /** With `session_id` and no `run_id`, while the session has a run going: join it, start a new one beside it, or let the model decide (`auto`, the default). */
  @IsOptional() @IsIn(ROUTINGS) routing?: Routing;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  /** Answer with server-sent events instead of one JSON object. */
  @IsOptional() @IsBoolean() stream?: boolean;
}

/** Body of `POST /api/v1/runs`: a run of the caller's own plan. */
export class RunPlanRequest {
  @ValidateNested() @Type(() => ClientPlan) plan!: ClientPlan;
  /** What the run's answer addresses; "Carry out the plan." when absent. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message?: string;
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
  'client_tool_calls',
] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export class FunctionCallSummary {
  @IsString() name!: string;
  @IsIn(['success', 'error']) status!: 'success' | 'error';
  @Allow() result!: unknown;
}

/**
 * Tokens as the provider billed them. `prompt_tokens` counts every prompt token; of those,
 * `cached_prompt_tokens` were read from the provider's prompt cache (OpenAI's
 * `prompt_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens`) and
 * `cache_write_tokens` were written to it (Anthropic's `cache_creation_input_tokens`, OpenAI's
 * `cache_write_tokens`); each is absent when the provider reported none.
 */
export class Usage {
  @IsInt() @Min(0) prompt_tokens!: number;
  @IsInt() @Min(0) completion_tokens!: number;
  @IsOptional() @IsInt() @Min(0) cached_prompt_tokens?: number;
  @IsOptional() @IsInt() @Min(0) cache_write_tokens?: number;
  /** What the tokens cost in USD, at the platform's price of the run's model; absent when it has none. */
  @IsOptional() @IsNumber() @Min(0) cost_usd?: number;
}

/**
 * A model's price in USD per million tokens (the `pricing` table of the configuration). Prompt
 * tokens read from the provider's cache cost `cached_input_per_mtok`, those written to it
 * `cache_write_per_mtok`; either is `input_per_mtok` when absent (no discount, no surcharge).
 */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
  cached_input_per_mtok?: number;
  cache_write_per_mtok?: number;
}

/** A call of a client tool the run waits for: answered by a `tool_results` entry with this id. */
export class ClientToolCall {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsObject() arguments!: Record<string, unknown>;
}

/** The chat response, also the reply of `agent.run`. */
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
  /** USD the run's session has cost so far, this run included; absent when the run's model has no price. */
  @IsOptional() @IsNumber() @Min(0) session_cost_so_far?: number;
  /**
   * When the platform could not serve the run (`finish_reason: "error"` because its model is not
   * configured, unreachable or refused the call): the code the gateway answers with (503
   * `unavailable`, 502 `upstream_error`), the provider's status and code in `details`.
   */
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
  /** With `client_tool_calls`: the calls the caller must answer. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ClientToolCall)
  client_tool_calls?: ClientToolCall[];
  /** With `awaiting_approval` at a function call: the calls held for a decision. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PendingApproval)
  approvals?: PendingApproval[];
}

/** The events of a run, in the order they can come; also the SSE event names of the chat API. */
export const AGENT_EVENT_TYPES = [
  'run_start',
  'run_resumed',
  'approval_required',
  'thought',
  'tool_call',
  'tool_result',
  'plan',
  'step',
  'delta',
  'user_message',
  'run_end',
] as const;
export type AgentEventType = (typeof AGENT_EVENT_TYPES)[number];

export interface AgentEvent {
  type: AgentEventType;
  run_id: string;
  seq: number;
  data: unknown;
}
