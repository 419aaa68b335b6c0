import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CLIENT_TOOL_NAME_PATTERN, MAX_HISTORY_MESSAGES, MAX_MESSAGE_CHARS, NAME_PATTERN } from './agent';

/** A content part of OpenAI's message format; only text parts are understood. */
export interface OpenAiTextPart {
  type: 'text';
  text: string;
}

export type OpenAiContent = string | OpenAiTextPart[] | null;

const isText = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.length <= MAX_MESSAGE_CHARS) ||
  (Array.isArray(value) &&
    value.every(
      (part) =>
        typeof part === 'object' &&
        part !== null &&
        (part as OpenAiTextPart).type === 'text' &&
        typeof (part as OpenAiTextPart).text === 'string' &&
        (part as OpenAiTextPart).text.length <= MAX_MESSAGE_CHARS,
    ));

const IsTextContent = () =>
  ValidateBy({
    name: 'isTextContent',
    validator: {
      validate: isText,
      defaultMessage: () =>
        `must be a string or an array of text parts ({"type":"text","text":…}) of at most ${MAX_MESSAGE_CHARS} characters; images, audio and files are not supported`,
    },
  });

/** `tool_choice`: only `auto` (the default) and `none` (client tools not offered). */
const IsSupportedToolChoice = () =>
  ValidateBy({
    name: 'isSupportedToolChoice',
    validator: {
      validate: (value: unknown) => value === 'auto' || value === 'none',
      defaultMessage: () =>
        "must be 'auto' or 'none': the agent decides which functions to call ('required' and a named function are not supported)",
    },
  });

/** `response_format`: plain text only; JSON modes are refused rather than silently not enforced. */
const IsTextFormat = () =>
  ValidateBy({
    name: 'isTextFormat',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'text',
      defaultMessage: () => 'only {"type":"text"} is supported (json_object and json_schema are not)',
    },
  });

export class OpenAiFunctionCall {
  @IsString() @MaxLength(64) name!: string;
  /** The arguments as a JSON text. */
  @IsString() @MaxLength(MAX_MESSAGE_CHARS) arguments!: string;
}

/** A tool call on an assistant message, as the client replays it. */
export class OpenAiToolCall {
  @IsString() @MaxLength(256) id!: string;
  @IsIn(['function']) type!: 'function';
  @ValidateNested() @Type(() => OpenAiFunctionCall) function!: OpenAiFunctionCall;
}

export class OpenAiChatMessage {
  /** `developer` is read as `system`. */
  @IsIn(['system', 'developer', 'user', 'assistant', 'tool'])
  role!: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  @IsTextContent() content?: OpenAiContent;
  @IsOptional() @IsString() @MaxLength(256) name?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => OpenAiToolCall)
  tool_calls?: OpenAiToolCall[];
  @IsOptional() @IsString() @MaxLength(256) tool_call_id?: string;
}

export class OpenAiFunctionDefinition {
  @IsString() @Matches(CLIENT_TOOL_NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(4_000) description?: string;
  /** JSON Schema of the arguments object. */
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
  @IsOptional() @IsBoolean() strict?: boolean;
}

/** A tool the client runs itself. */
export class OpenAiTool {
  @IsIn(['function']) type!: 'function';
  @ValidateNested() @Type(() => OpenAiFunctionDefinition) function!: OpenAiFunctionDefinition;
}

export class OpenAiStreamOptions {
  /** The last chunk carries `usage` (its `choices` empty). */
  @IsOptional() @IsBoolean() include_usage?: boolean;
}

/**
 * Body of `POST /v1/chat/completions`. `model` names an agent. Fields not listed here
 * (temperature, top_p, max_tokens, stop, seed, user, metadata, …) are accepted and ignored: the
 * agent's profile decides them. Refused with 400: `n` other than 1, `logprobs: true`, a
 * `response_format` other than text, a `tool_choice` other than auto/none, non-text content,
 * the legacy `functions` and `function_call`.
 */
export class ChatCompletionRequest {
  @IsString()
  @Matches(NAME_PATTERN, { message: 'must be the name of an agent (GET /v1/models)' })
  model!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_HISTORY_MESSAGES)
  @ValidateNested({ each: true })
  @Type(() => OpenAiChatMessage)
  messages!: OpenAiChatMessage[];

  @IsOptional() @IsBoolean() stream?: boolean;
  @IsOptional() @ValidateNested() @Type(() => OpenAiStreamOptions) stream_options?: OpenAiStreamOptions;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => OpenAiTool)
  tools?: OpenAiTool[];

  @IsOptional() @IsSupportedToolChoice() tool_choice?: 'auto' | 'none';
  @IsOptional() @Equals(1, { message: 'only n=1 is supported' }) n?: number;
  @IsOptional() @Equals(false, { message: 'logprobs are not supported' }) logprobs?: boolean;
  @IsOptional() @IsTextFormat() response_format?: { type: 'text' };
  @IsEmpty({ message: 'is not supported: use tools' }) functions?: never;
  @IsEmpty({ message: 'is not supported: use tool_choice' }) function_call?: never;
  /** Accepted for compatibility and never used: sessions are explicit (`X-Session-Id`). */
  @IsOptional() @IsString() @MaxLength(256) user?: string;
}
