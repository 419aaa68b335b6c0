import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  Equals,
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
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CLIENT_TOOL_NAME_PATTERN, MAX_HISTORY_MESSAGES, MAX_MESSAGE_CHARS, NAME_PATTERN } from './agent';

/*
 * The Responses API (`/v1/responses`), as OpenAI and the vendor-neutral Open Responses
 * specification name it. `model` names an agent; a response is one turn of a platform run.
 */

/** A function the caller runs itself (`tools[]`); other tool types are refused. */
export class ResponseFunctionTool {
  @IsIn(['function']) type!: 'function';
  @IsString() @Matches(CLIENT_TOOL_NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(4_000) description?: string;
  /** JSON Schema of the arguments object. */
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
  @IsOptional() @IsBoolean() strict?: boolean;
}

const INPUT_SCHEMA = {
  description:
    'A string (one user message), or input items: `message` (role user, assistant, system or developer; ' +
    'content a string or `input_text`/`output_text` parts), `function_call_output` (the result of a call ' +
    'this server asked for: `call_id`, `output`), `function_call` (replayed, ignored with a session), and ' +
    '`mcp_approval_response` (`approval_request_id`, `approve`, `reason`) deciding a held call.',
  oneOf: [
    { type: 'string', maxLength: MAX_MESSAGE_CHARS },
    { type: 'array', maxItems: MAX_HISTORY_MESSAGES, items: { type: 'object' } },
  ],
};

const IsResponseInput = () =>
  ValidateBy(
    {
      name: 'isResponseInput',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.length <= MAX_MESSAGE_CHARS) ||
          (Array.isArray(value) &&
            value.length <= MAX_HISTORY_MESSAGES &&
            value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))),
        defaultMessage: () =>
          `must be a string of at most ${MAX_MESSAGE_CHARS} characters or an array of at most ${MAX_HISTORY_MESSAGES} input items`,
      },
    },
    { context: { jsonSchema: INPUT_SCHEMA } },
  );

/** `tool_choice`: `auto` (the default) or `none` (the caller's functions not offered). */
const IsSupportedToolChoice = () =>
  ValidateBy({
    name: 'isResponseToolChoice',
    validator: {
      validate: (value: unknown) => value === 'auto' || value === 'none',
      defaultMessage: () =>
        "must be 'auto' or 'none': the agent decides which functions to call ('required' and a named function are not supported)",
    },
  });

export class ResponseTextFormat {
  /** Plain text only: JSON modes are refused rather than silently not enforced. */
  @IsIn(['text'], { message: 'only {"type":"text"} is supported (json_schema and json_object are not)' })
  type!: 'text';
}

export class ResponseTextConfig {
  @IsOptional() @ValidateNested() @Type(() => ResponseTextFormat) format?: ResponseTextFormat;
}

/**
 * Body of `POST /v1/responses`. Sampling fields (temperature, top_p, max_output_tokens, …) are
 * accepted and ignored: the agent's profile decides them. `previous_response_id` continues that
 * response's session; `store: false` is refused (every run is recorded, with its trace).
 */
export class CreateResponseRequest {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'must be the name of an agent (GET /v1/models)' })
  model!: string;

  @IsResponseInput() input!: string | Record<string, unknown>[];

  /** Added to the agent's own system prompt for this response. */
  @IsOptional() @IsString() @MaxLength(MAX_MESSAGE_CHARS) instructions?: string;

  @IsOptional() @IsString() @MaxLength(128) previous_response_id?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => ResponseFunctionTool)
  tools?: ResponseFunctionTool[];

  @IsOptional() @IsSupportedToolChoice() tool_choice?: 'auto' | 'none';
  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional()
  @Equals(true, { message: 'must be true: every run is recorded, with its trace' })
  store?: boolean;
  @IsOptional() @Equals(false, { message: 'background responses are not supported' }) background?: boolean;
  @IsOptional() @ValidateNested() @Type(() => ResponseTextConfig) text?: ResponseTextConfig;
  @IsOptional() @IsObject() metadata?: Record<string, string>;
  @IsOptional() @IsBoolean() parallel_tool_calls?: boolean;
  @IsOptional() @IsNumber() temperature?: number;
  @IsOptional() @IsNumber() top_p?: number;
  @IsOptional() @IsInt() max_output_tokens?: number;
}

export class ResponseInputTokensDetails {
  /** Prompt tokens a provider's cache served. */
  @IsInt() cached_tokens!: number;
}

export class ResponseOutputTokensDetails {
  @IsInt() reasoning_tokens!: number;
}

export class ResponseUsage {
  @IsInt() input_tokens!: number;
  @ValidateNested() @Type(() => ResponseInputTokensDetails) input_tokens_details!: ResponseInputTokensDetails;
  @IsInt() output_tokens!: number;
  @ValidateNested()
  @Type(() => ResponseOutputTokensDetails)
  output_tokens_details!: ResponseOutputTokensDetails;
  @IsInt() total_tokens!: number;
}

export class ResponseError {
  @IsString() code!: string;
  @IsString() message!: string;
}

export class ResponseIncompleteDetails {
  @IsString() reason!: string;
}

const OUTPUT_SCHEMA = {
  type: 'array',
  description:
    "`message` (the agent's text: a step's text before it called the caller's functions, then the answer, " +
    "each its own item), `function_call` (a call of one of the caller's `tools`: answer it with a " +
    '`function_call_output` input item and `previous_response_id`), `mcp_approval_request` (a call held for ' +
    'approval: answer with an `mcp_approval_response` input item).',
  items: { type: 'object' },
};

/** A response (the Open Responses `ResponseResource`). Optional fields are present, possibly null. */
export class ResponseObject {
  @IsString() id!: string;
  @IsIn(['response']) object!: 'response';
  @IsInt() created_at!: number;
  @IsOptional() @IsInt() completed_at!: number | null;
  @IsIn(['in_progress', 'completed', 'incomplete', 'failed', 'cancelled'])
  status!: 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';
  @IsOptional()
  @ValidateNested()
  @Type(() => ResponseIncompleteDetails)
  incomplete_details!: ResponseIncompleteDetails | null;
  @IsString() model!: string;
  @IsOptional() @IsString() previous_response_id!: string | null;
  @IsOptional() @IsString() instructions!: string | null;
  @IsArray() @Allow({ context: { jsonSchema: OUTPUT_SCHEMA } }) output!: Record<string, unknown>[];
  @IsOptional() @ValidateNested() @Type(() => ResponseError) error!: ResponseError | null;
  @IsArray() @Allow() tools!: Record<string, unknown>[];
  @Allow() tool_choice!: 'auto' | 'none';
  @IsIn(['disabled']) truncation!: 'disabled';
  @IsBoolean() parallel_tool_calls!: boolean;
  @IsObject() text!: { format: { type: 'text' } };
  @IsNumber() top_p!: number;
  @IsNumber() presence_penalty!: number;
  @IsNumber() frequency_penalty!: number;
  @IsInt() top_logprobs!: number;
  @IsNumber() temperature!: number;
  @IsOptional() @Allow() reasoning!: null;
  @IsOptional() @ValidateNested() @Type(() => ResponseUsage) usage!: ResponseUsage | null;
  @IsOptional() @IsInt() max_output_tokens!: number | null;
  @IsOptional() @IsInt() max_tool_calls!: number | null;
  @IsBoolean() store!: boolean;
  @IsBoolean() background!: boolean;
  @IsString() service_tier!: string;
  @IsObject() metadata!: Record<string, string>;
  @IsOptional() @IsString() safety_identifier!: string | null;
  @IsOptional() @IsString() prompt_cache_key!: string | null;
  /** The platform's run and session behind the response (standard clients ignore it). */
  @IsObject() agentchassis!: { run_id: string; session_id: string; finish_reason: string; cost_usd?: number };
}

/** `GET /v1/responses/:id/input_items`. */
export class ResponseInputItemList {
  @IsIn(['list']) object!: 'list';
  @IsArray() @Allow() data!: Record<string, unknown>[];
  @IsOptional() @IsString() first_id!: string | null;
  @IsOptional() @IsString() last_id!: string | null;
  @IsBoolean() has_more!: boolean;
}
