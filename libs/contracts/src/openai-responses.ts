import { Type } from 'class-transformer';
import { Allow, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import { FINISH_REASONS, type FinishReason, FunctionCallSummary } from './agent';

/**
 * Response shapes of the OpenAI-compatible API (`/v1`), as classes with validation rules so the
 * API document is generated from them. `agentchassis` is the one extension field: standard
 * clients ignore it. Optional fields here are present, possibly null.
 */
export const OPENAI_FINISH_REASONS = ['stop', 'length', 'tool_calls'] as const;
export type OpenAiFinishReason = (typeof OPENAI_FINISH_REASONS)[number];

/** Of the prompt tokens, those the provider's prompt cache served (as OpenAI reports them). */
export class OpenAiPromptTokensDetails {
  @IsInt() cached_tokens!: number;
}

export class OpenAiUsage {
  @IsInt() prompt_tokens!: number;
  @IsInt() completion_tokens!: number;
  @IsInt() total_tokens!: number;
  @IsOptional()
  @ValidateNested()
  @Type(() => OpenAiPromptTokensDetails)
  prompt_tokens_details?: OpenAiPromptTokensDetails;
}

export class OpenAiFunctionCallOut {
  @IsString() name!: string;
  /** JSON text, as OpenAI sends it. */
  @IsString() arguments!: string;
}

export class OpenAiToolCallOut {
  @IsString() id!: string;
  @IsIn(['function']) type!: 'function';
  @ValidateNested() @Type(() => OpenAiFunctionCallOut) function!: OpenAiFunctionCallOut;
}

export class ChatCompletionMessageOut {
  @IsIn(['assistant']) role!: 'assistant';
  @IsOptional() @IsString() content!: string | null;
  @IsOptional() @Allow() refusal!: null;
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OpenAiToolCallOut)
  tool_calls?: OpenAiToolCallOut[];
}

export class ChatCompletionChoice {
  @IsInt() index!: number;
  @ValidateNested() @Type(() => ChatCompletionMessageOut) message!: ChatCompletionMessageOut;
  @IsIn(OPENAI_FINISH_REASONS) finish_reason!: OpenAiFinishReason;
  @IsOptional() @Allow() logprobs!: null;
}

/**
 * What the platform adds to a completion: the run, its session, its own finish reason, the
 * functions it ran, and what it cost (OpenAI's `usage` has no place for it).
 */
export class AgentChassisRunInfo {
  @IsString() run_id!: string;
  @IsString() session_id!: string;
  @IsIn(FINISH_REASONS) finish_reason!: FinishReason;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => FunctionCallSummary)
  function_calls!: FunctionCallSummary[];
  /** USD, at the price of the agent's model; absent when it has none. */
  @IsOptional() @IsNumber() cost_usd?: number;
}

export class ChatCompletionResponse {
  @IsString() id!: string;
  @IsIn(['chat.completion']) object!: 'chat.completion';
  @IsInt() created!: number;
  @IsString() model!: string;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ChatCompletionChoice)
  choices!: ChatCompletionChoice[];
  @ValidateNested() @Type(() => OpenAiUsage) usage!: OpenAiUsage;
  @ValidateNested() @Type(() => AgentChassisRunInfo) agentchassis!: AgentChassisRunInfo;
}

export class ChatCompletionChunkDelta {
  role?: 'assistant';
  content?: string;
  tool_calls?: (OpenAiToolCallOut & { index: number })[];
}

export class ChatCompletionChunkChoice {
  index!: number;
  delta!: ChatCompletionChunkDelta;
  finish_reason!: OpenAiFinishReason | null;
  logprobs!: null;
}

/**
 * What the agent did on the platform's side, on a chunk whose `choices` is empty: `delta` (a
 * step's text as it is written), `thought` (a step that calls functions: its text was a thought),
 * `tool_call`, `tool_result`, `plan`, `plan_step`, and `run_end` (on the chunk with the finish reason).
 */
export class AgentChassisStreamEvent {
  event!: 'delta' | 'thought' | 'tool_call' | 'tool_result' | 'plan' | 'plan_step' | 'run_end';
  [field: string]: unknown;
}

export class ChatCompletionChunk {
  id!: string;
  object!: 'chat.completion.chunk';
  created!: number;
  model!: string;
  choices!: ChatCompletionChunkChoice[];
  usage?: OpenAiUsage;
  agentchassis?: AgentChassisStreamEvent;
}

export class OpenAiModel {
  /** The agent's name. */
  @IsString() id!: string;
  @IsIn(['model']) object!: 'model';
  @IsInt() created!: number;
  @IsString() owned_by!: string;
}

export class OpenAiModelList {
  @IsIn(['list']) object!: 'list';
  @IsArray() @ValidateNested({ each: true }) @Type(() => OpenAiModel) data!: OpenAiModel[];
}

export class OpenAiErrorDetail {
  @IsString() message!: string;
  @IsString() type!: string;
  @IsOptional() @IsString() param!: string | null;
  @IsOptional() @IsString() code!: string | null;
}

/** Errors of the `/v1` routes, in OpenAI's shape. */
export class OpenAiErrorResponse {
  @ValidateNested() @Type(() => OpenAiErrorDetail) error!: OpenAiErrorDetail;
}
