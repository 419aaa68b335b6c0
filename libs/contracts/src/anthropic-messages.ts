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
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CLIENT_TOOL_NAME_PATTERN, MAX_HISTORY_MESSAGES, MAX_MESSAGE_CHARS, NAME_PATTERN } from './agent';

/*
 * Anthropic's Messages API (`POST /v1/messages`): `model` names an agent, the key comes in
 * `x-api-key` as Anthropic's clients send it.
 */

const BLOCKS_SCHEMA = {
  description:
    'A string, or content blocks: `text`, `tool_use` (replayed, in an assistant message) and `tool_result` ' +
    '(`tool_use_id`, `content`, in a user message: the result of a call this server asked for).',
  oneOf: [
    { type: 'string', maxLength: MAX_MESSAGE_CHARS },
    { type: 'array', maxItems: 256, items: { type: 'object' } },
  ],
};

const isContent = (value: unknown): boolean =>
  (typeof value === 'string' && value.length <= MAX_MESSAGE_CHARS) ||
  (Array.isArray(value) &&
    value.length <= 256 &&
    value.every((block) => typeof block === 'object' && block !== null && !Array.isArray(block)));

const IsAnthropicContent = () =>
  ValidateBy(
    {
      name: 'isAnthropicContent',
      validator: {
        validate: isContent,
        defaultMessage: () =>
          `must be a string of at most ${MAX_MESSAGE_CHARS} characters or an array of content blocks`,
      },
    },
    { context: { jsonSchema: BLOCKS_SCHEMA } },
  );

export class AnthropicMessageParam {
  @IsIn(['user', 'assistant']) role!: 'user' | 'assistant';
  @IsAnthropicContent() content!: string | Record<string, unknown>[];
}

export class AnthropicTool {
  @IsString() @Matches(CLIENT_TOOL_NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(4_000) description?: string;
  /** JSON Schema of the input object. */
  @IsObject() input_schema!: Record<string, unknown>;
  /** Only a custom tool (the caller runs it); Anthropic's server tools are refused. */
  @IsOptional()
  @IsIn(['custom'], { message: "only custom tools are supported (Anthropic's server tools are not)" })
  type?: 'custom';
}

export class AnthropicToolChoice {
  /** `auto` (the default) or `none`: the agent decides which functions to call. */
  @IsIn(['auto', 'none'], {
    message:
      "must be 'auto' or 'none': the agent decides which functions to call ('any' and 'tool' are not supported)",
  })
  type!: 'auto' | 'none';
}

/**
 * Body of `POST /v1/messages`. `max_tokens` is required as Anthropic requires it, and the agent's
 * own limits apply; sampling fields are accepted and ignored. Images, documents and server tools
 * are refused with 400.
 */
export class AnthropicMessagesRequest {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'must be the name of an agent (GET /v1/models)' })
  model!: string;

  @IsInt() @Min(1) max_tokens!: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_HISTORY_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => AnthropicMessageParam)
  messages!: AnthropicMessageParam[];

  /** Added to the agent's system prompt: a string or text blocks. */
  @IsOptional() @IsAnthropicContent() system?: string | Record<string, unknown>[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => AnthropicTool)
  tools?: AnthropicTool[];

  @IsOptional() @ValidateNested() @Type(() => AnthropicToolChoice) tool_choice?: AnthropicToolChoice;
  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional() @IsObject() metadata?: Record<string, unknown>;
  @IsOptional() @IsNumber() temperature?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) stop_sequences?: string[];
}

export class AnthropicUsage {
  @IsInt() input_tokens!: number;
  @IsInt() output_tokens!: number;
  @IsInt() cache_creation_input_tokens!: number;
  @IsInt() cache_read_input_tokens!: number;
}

export const ANTHROPIC_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'tool_use',
  'pause_turn',
  'refusal',
] as const;
export type AnthropicStopReason = (typeof ANTHROPIC_STOP_REASONS)[number];

/** The answer of `POST /v1/messages`, in Anthropic's shape, with the platform's run as `agentchassis`. */
export class AnthropicMessage {
  @IsString() id!: string;
  @IsIn(['message']) type!: 'message';
  @IsIn(['assistant']) role!: 'assistant';
  @IsString() model!: string;
  /** `text` blocks (a step's text before the caller's tools are called is its own block) and `tool_use` blocks. */
  @IsArray() @Allow() content!: Record<string, unknown>[];
  @IsIn(ANTHROPIC_STOP_REASONS) stop_reason!: AnthropicStopReason;
  @IsOptional() @IsString() stop_sequence!: string | null;
  @ValidateNested() @Type(() => AnthropicUsage) usage!: AnthropicUsage;
  /** The run and session behind the message; calls held for approval, to decide at `/api/v1/runs/:id/approve`. */
  @IsObject() agentchassis!: Record<string, unknown>;
}

export class AnthropicErrorDetail {
  @IsString() type!: string;
  @IsString() message!: string;
}

/** Errors of `/v1/messages`, in Anthropic's shape. */
export class AnthropicErrorResponse {
  @IsIn(['error']) type!: 'error';
  @ValidateNested() @Type(() => AnthropicErrorDetail) error!: AnthropicErrorDetail;
}
