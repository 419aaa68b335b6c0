import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsScopes, type Scope } from './api-keys';
import { ID_PATTERN, MAX_MESSAGE_CHARS, NAME_PATTERN } from './agent';
import { RunRefRequest } from './agent-runs';

/** The highest model step a URL or a fork may name (a run stops long before: `max_steps` ≤ 100, replans). */
export const MAX_STEP = 10_000;

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;

/** Body of `agent.runs.step-messages`: one model step of a run, `principal` as for a run. */
export class RunStepRequest extends RunRefRequest {
  @Transform(toInt) @IsInt() @Min(1) @Max(MAX_STEP) step!: number;
}

/**
 * Which part of the conversation a message is: the system prompt, earlier turns of the session
 * (or its summary), the caller's message, the model's own earlier replies, function results, a
 * message the caller added while the run ran, or the platform's repair prompt after an unreadable reply.
 */
export const PROMPT_PARTS = [
  'system',
  'summary',
  'history',
  'input',
  'assistant',
  'result',
  'message',
  'repair',
] as const;
export type PromptPart = (typeof PROMPT_PARTS)[number];

/** A native function call in a message or a reply. */
export interface PromptToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A named piece of the system prompt: the agent's instructions, the functions section, the calling guide. */
export class PromptSection {
  @IsString() name!: 'instructions' | 'functions' | 'guide';
  @IsInt() tokens!: number;
}

/** One message of a model request, as the provider received it. */
export class PromptMessage {
  @IsIn(['system', 'user', 'assistant', 'tool']) role!: 'system' | 'user' | 'assistant' | 'tool';
  @IsIn(PROMPT_PARTS) part!: PromptPart;
  @IsString() content!: string;
  /** Its tokens by the model's tokenizer (the role's few framing tokens not counted). */
  @IsInt() tokens!: number;
  /** native: the calls an assistant message made, and the call a tool message answers. */
  @IsOptional() @IsArray() tool_calls?: PromptToolCall[];
  @IsOptional() @IsString() tool_call_id?: string;
  /** The system message: how its tokens split between instructions, functions and the calling guide. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PromptSection)
  sections?: PromptSection[];
}

/** The model's reply to that request, as it returned it. */
export class PromptReply {
  @IsString() text!: string;
  @IsArray() tool_calls!: PromptToolCall[];
  @IsInt() prompt_tokens!: number;
  @IsInt() completion_tokens!: number;
  @IsOptional() @IsInt() cached_prompt_tokens?: number;
  @IsInt() elapsed_ms!: number;
}

/**
 * `GET /api/v1/runs/:id/steps/:step/messages`: what model step `step` sent and got back, rebuilt from
 * the run's journal by the code that built it; known secrets are masked.
 */
export class StepMessagesView {
  @IsString() run_id!: string;
  @IsInt() step!: number;
  @IsString() agent!: string;
  @IsOptional() @IsString() model?: string;
  @IsString() protocol!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => PromptMessage) messages!: PromptMessage[];
  /** native: the function definitions sent beside the messages, and their tokens. */
  @IsOptional() @IsArray() tools?: unknown[];
  @IsOptional() @IsInt() tools_tokens?: number;
  /** The tokens of each part added up (what the protocol costs: `system` holds the functions section). */
  @Allow() tokens_by_part!: Partial<Record<PromptPart | 'tools', number>>;
  @ValidateNested() @Type(() => PromptReply) reply!: PromptReply;
  /** True when something was masked as a secret. */
  @IsBoolean() redacted!: boolean;
}

/** A function result to give the model instead of the journaled one (fork). */
export class ForkToolResult {
  /** The call's place among the calls of the step before `from_step`. */
  @IsInt() @Min(0) @Max(1_000) index!: number;
  /** What the model reads as the call's result (a string is its message, anything else its data). */
  @Allow() result!: unknown;
  /** `error`: the model reads `result` (a string) as the call's error. */
  @IsOptional() @IsIn(['success', 'error']) status?: 'success' | 'error';
}

/**
 * Body of `POST /api/v1/runs/:id/fork`: a new run that takes the run's steps before `from_step`
 * from its journal (sent to no model and no function again) and runs live from `from_step` on,
 * with what the model reads there changed as asked.
 */
export class ForkRunBody {
  @IsInt() @Min(1) @Max(MAX_STEP) from_step!: number;
  /**
   * What the model reads at `from_step`: at step 1 it replaces the run's message; later it is
   * added before that step, as a message the caller sent while the run ran.
   */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message?: string;
  /** Another agent profile from `from_step` on (its model, prompt, tools, limits). */
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  /** Another model from `from_step` on. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(128) model?: string;
  /** Results of the previous step's calls to give the model instead of the journaled ones. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => ForkToolResult)
  tool_results?: ForkToolResult[];
  /** `new` (default): the fork starts a session of its own, with the run's earlier history; `same`: it joins the run's session. */
  @IsOptional() @IsIn(['new', 'same']) session?: 'new' | 'same';
  @IsOptional() @IsBoolean() stream?: boolean;
}

/** Body of `agent.runs.fork`: the fork, with the caller as for a turn. */
export class RunForkRequest extends ForkRunBody {
  /** The run forked (the caller's own, unless no principal is given). */
  @IsString() @Matches(ID_PATTERN) from_run!: string;
  /** The new run's id, chosen by the gateway so it can follow the run if its reply is lost. */
  @IsString() @Matches(ID_PATTERN) run_id!: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  @IsOptional() @IsString() @MaxLength(64) key_id?: string;
  @IsOptional() @IsScopes() scopes?: Scope[];
}
