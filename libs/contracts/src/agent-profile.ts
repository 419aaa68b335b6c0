import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NAME_PATTERN, ROUTINGS, type Routing } from './agent';
import { AgentHook, AgentHookSpec } from './agent-hooks';
import { PROMPT_LANGUAGES, type PromptLanguage, PromptOverrides } from './agent-prompts';
import { MEMORY_SCOPES, type MemoryScopeKind, MemorySettings } from './memory';

export const AGENT_PROTOCOLS = ['xml-toon', 'json-action', 'native'] as const;
export type AgentProtocol = (typeof AGENT_PROTOCOLS)[number];

export const AGENT_MODES = ['react', 'plan'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

export const STEP_FAILURE_POLICIES = ['skip', 'abort', 'replan'] as const;
export type StepFailurePolicy = (typeof STEP_FAILURE_POLICIES)[number];

/** What a held call's approval timeout decides. */
export const APPROVAL_DEFAULTS = ['reject', 'approve'] as const;
export type ApprovalDefault = (typeof APPROVAL_DEFAULTS)[number];

export const AGENT_LLM_PROVIDERS = ['openai', 'openai-compatible', 'azure', 'ollama', 'anthropic'] as const;

/** A function name, or a prefix pattern ending in `*` (`delay_*`, `*` for every function). */
export const TOOL_PATTERN = /^(\*|[a-z][a-z0-9_]{0,63}\*?)$/;

const MAX_HOOKS = 20;

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `30s`, `2m`, `500ms` or a plain number of milliseconds; anything else is left for the validator to refuse. */
export function toMilliseconds(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = DURATION.exec(value.trim());
  return match ? Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']) : value;
}

const Duration = () => Transform(({ value }) => toMilliseconds(value));

/**
 * What an agent is allowed to do and how. Every field but `name` is optional: the
 * executor fills the documented defaults. This is the shape accepted over REST.
 */
export class AgentProfileFields {
  @IsString() @Matches(NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
  @IsOptional() @IsString() @MaxLength(20_000) system_prompt?: string;
  @IsOptional() @IsString() @MaxLength(128) model?: string;
  @IsOptional() @IsIn(AGENT_PROTOCOLS) protocol?: AgentProtocol;
  @IsOptional() @IsIn(AGENT_MODES) mode?: AgentMode;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Matches(TOOL_PATTERN, { each: true })
  allowed_tools?: string[];

  @IsOptional() @IsInt() @Min(1) @Max(100) max_steps?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1_000) max_tool_calls?: number;
  /** Deadline of each function call (ms, or a duration such as `30s`). */
  @IsOptional() @Duration() @IsInt() @Min(1) @Max(3_600_000) single_call_timeout?: number;
  /** Prompt + completion tokens a run may spend; 0 = no limit. */
  @IsOptional() @IsInt() @Min(0) total_token_budget?: number;
  /**
   * USD a run may spend at its model's price (the `pricing` table): no model step starts once the
   * run's cost has reached it, and the run ends with `budget`. No limit for a model without a price.
   */
  @IsOptional() @IsNumber() @IsPositive() max_cost_usd?: number;
  /** Characters of one function result fed back to the model. */
  @IsOptional() @IsInt() @Min(64) @Max(1_000_000) observation_max_len?: number;
  /** The model's context in tokens; history beyond half of it is summarised. */
  @IsOptional() @IsInt() @Min(256) @Max(10_000_000) context_window?: number;
  /** Overall deadline of a run (ms or duration); never longer than the platform's AGENT_RUN_TIMEOUT. */
  @IsOptional() @Duration() @IsInt() @Min(1) @Max(86_400_000) run_timeout?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) max_tokens?: number;
  /** Plan mode: hold the plan in `awaiting_approval` until it is approved or rejected. */
  @IsOptional() @IsBoolean() plan_approval?: boolean;
  /** Plan mode: what a failed step does to the rest of the plan. */
  @IsOptional() @IsIn(STEP_FAILURE_POLICIES) step_failure?: StepFailurePolicy;
  /** Where a session's message goes while a run of it is going, when the message does not say: `auto` when absent. */
  @IsOptional() @IsIn(ROUTINGS) routing?: Routing;
  /**
   * ReAct: functions (names and `prefix*` patterns, as `allowed_tools`) whose calls wait for a
   * person's decision before they are sent; `"all"` is every function (kept as `["*"]`).
   */
  @IsOptional()
  @Transform(({ value }) => (value === 'all' ? ['*'] : value))
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Matches(TOOL_PATTERN, { each: true })
  needs_approval?: string[];
  /** How long a held call waits for a decision (ms or a duration) before `approval_default` applies. */
  @IsOptional() @Duration() @IsInt() @Min(1_000) @Max(604_800_000) approval_timeout?: number;
  /** What a held call's timeout decides; the platform's `AGENT_APPROVAL_DEFAULT` when absent. */
  @IsOptional() @IsIn(APPROVAL_DEFAULTS) approval_default?: ApprovalDefault;
  /** Functions or webhooks told of the run's events; a `before_tool` hook may deny or rewrite a call. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HOOKS)
  @ValidateNested({ each: true })
  @Type(() => AgentHook)
  hooks?: AgentHook[];
  /**
   * Serve the agent as the function `agent_<name>` (its description is the profile's): other
   * agents, scheduled tasks and API clients call it with a `message` and get its reply.
   */
  @IsOptional() @IsBoolean() expose_as_function?: boolean;
  /** Long-term memory: finished runs are archived and `memory_retrieve` / `memory_expand` offered. */
  @IsOptional() @ValidateNested() @Type(() => MemorySettings) memory?: MemorySettings;
  /** The language of the prompts the platform writes for the agent (`en` when absent). */
  @IsOptional() @IsIn(PROMPT_LANGUAGES) language?: PromptLanguage;
  /** The agent's own prompt templates by name (`system`, `routing_request`...), over its language's. */
  @IsOptional() @ValidateNested() @Type(() => PromptOverrides) prompts?: PromptOverrides;
}

/**
 * A profile from the configuration file may also choose its own model endpoint. Only the file may:
 * a profile created over REST pointing the platform's key at another URL would leak it.
 */
export class AgentProfileSpec extends AgentProfileFields {
  @IsOptional() @IsIn(AGENT_LLM_PROVIDERS) provider?: (typeof AGENT_LLM_PROVIDERS)[number];
  @IsOptional() @IsString() @Matches(/^https?:\/\/\S+$/) base_url?: string;
  @IsOptional() @IsString() @MaxLength(4_096) api_key?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HOOKS)
  @ValidateNested({ each: true })
  @Type(() => AgentHookSpec)
  override hooks?: AgentHookSpec[] = undefined;
}

/** A profile's memory with its default scope filled in. */
export class MemoryView {
  @IsBoolean() enabled!: boolean;
  @IsIn(MEMORY_SCOPES) scope!: MemoryScopeKind;
}

/** An agent profile as the API shows it: defaults filled in, never a key. */
export class AgentProfileView {
  @IsString() name!: string;
  @IsString() description!: string;
  @IsIn(['builtin', 'config', 'api']) source!: 'builtin' | 'config' | 'api';
  @IsString() system_prompt!: string;
  @IsOptional() @IsString() provider?: string;
  @IsOptional() @IsString() model?: string;
  @IsIn(AGENT_PROTOCOLS) protocol!: AgentProtocol;
  @IsIn(AGENT_MODES) mode!: AgentMode;
  @IsArray() @IsString({ each: true }) allowed_tools!: string[];
  @IsInt() max_steps!: number;
  @IsInt() max_tool_calls!: number;
  @IsInt() single_call_timeout!: number;
  @IsInt() total_token_budget!: number;
  @IsOptional() @IsNumber() max_cost_usd?: number;
  @IsInt() observation_max_len!: number;
  @IsInt() context_window!: number;
  @IsOptional() @IsInt() run_timeout?: number;
  @IsOptional() @IsNumber() temperature?: number;
  @IsOptional() @IsInt() max_tokens?: number;
  @IsBoolean() plan_approval!: boolean;
  @IsIn(STEP_FAILURE_POLICIES) step_failure!: StepFailurePolicy;
  @IsOptional() @IsIn(ROUTINGS) routing?: Routing;
  @IsOptional() @IsArray() @IsString({ each: true }) needs_approval?: string[];
  @IsOptional() @IsInt() approval_timeout?: number;
  @IsOptional() @IsIn(APPROVAL_DEFAULTS) approval_default?: ApprovalDefault;
  @IsArray() @ValidateNested({ each: true }) @Type(() => AgentHookSpec) hooks!: AgentHookSpec[];
  @IsBoolean() expose_as_function!: boolean;
  @ValidateNested() @Type(() => MemoryView) memory!: MemoryView;
  @IsOptional() @IsIn(PROMPT_LANGUAGES) language?: PromptLanguage;
  @IsOptional() @ValidateNested() @Type(() => PromptOverrides) prompts?: PromptOverrides;
  /**
   * In the reply that created or replaced the profile only: what was accepted but may not work yet
   * (an `allowed_tools` name no function provider serves now; a provider may start later).
   */
  @IsOptional() @IsArray() @IsString({ each: true }) warnings?: string[];
}

export class AgentNameRequest {
  @IsString() @Matches(NAME_PATTERN) name!: string;
}

/** Body of `agent.profiles.create`: the profile, and who creates it (its owner). */
export class AgentProfileCreateRequest {
  @ValidateNested() @Type(() => AgentProfileFields) profile!: AgentProfileFields;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

/** Body of `agent.profiles.update`: the whole profile, replacing the stored one of that name. */
export class AgentProfileUpdateRequest extends AgentProfileCreateRequest {}

/** Body of `agent.profiles.delete`. */
export class AgentProfileDeleteRequest extends AgentNameRequest {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}
