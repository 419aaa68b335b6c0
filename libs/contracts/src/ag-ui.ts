import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { CLIENT_TOOL_NAME_PATTERN, MAX_HISTORY_MESSAGES } from './agent';

/*
 * AG-UI (Agent-User Interaction protocol, 1.0): a front end runs an agent with `RunAgentInput`
 * and reads the run as AG-UI events over server-sent events.
 */

/** A tool the front end runs itself (a "frontend tool"). */
export class AgUiTool {
  @IsString() @Matches(CLIENT_TOOL_NAME_PATTERN) name!: string;
  @IsOptional() @IsString() @MaxLength(4_000) description?: string;
  /** JSON Schema of the arguments object. */
  @IsOptional() @IsObject() parameters?: Record<string, unknown>;
}

/** An answer to an interrupt a previous run ended with (a call held for approval). */
export class AgUiResumeEntry {
  @IsString() @MaxLength(200) interruptId!: string;
  @IsIn(['resolved', 'cancelled']) status!: 'resolved' | 'cancelled';
  /** `{approve: boolean, reason?: string}`; a cancelled entry rejects the call. */
  @IsOptional() @Allow() payload?: unknown;
}

const MESSAGES_SCHEMA = {
  type: 'array',
  maxItems: MAX_HISTORY_MESSAGES,
  description:
    'AG-UI messages (`id`, `role`: user, assistant, system, developer or tool; `content`; an assistant’s ' +
    '`toolCalls`; a tool message’s `toolCallId`). The trailing user messages are the turn; with a `threadId` ' +
    'naming a platform session (ses_…) only they are read, else the earlier ones are its history.',
  items: { type: 'object' },
};

/** Body of `POST /ag-ui` (and `/ag-ui/:agent`): AG-UI's `RunAgentInput`. */
export class AgUiRunInput {
  /** The conversation: a platform session id (ses_…) continues that session; any other id a new one. */
  @IsString() @MaxLength(200) threadId!: string;
  @IsString() @MaxLength(200) runId!: string;
  @IsOptional() @IsString() @MaxLength(20) protocolVersion?: string;
  @IsOptional() @IsString() @MaxLength(200) parentRunId?: string;
  @IsArray({ context: { jsonSchema: MESSAGES_SCHEMA } })
  @ArrayMaxSize(MAX_HISTORY_MESSAGES)
  @IsObject({ each: true })
  messages!: Record<string, unknown>[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @ValidateNested({ each: true })
  @Type(() => AgUiTool)
  tools?: AgUiTool[];
  @IsOptional() @IsArray() @ArrayMaxSize(64) context?: unknown[];
  @IsOptional() @Allow() state?: unknown;
  @IsOptional() @Allow() forwardedProps?: unknown;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => AgUiResumeEntry)
  resume?: AgUiResumeEntry[];
}
