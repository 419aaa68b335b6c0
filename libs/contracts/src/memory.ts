import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ID_PATTERN } from './agent';

/**
 * Whose memories a run of the agent recalls: `session` this session's, `principal` everything of
 * the caller's, `agent` what this agent remembers of the caller (across its sessions).
 */
export const MEMORY_SCOPES = ['session', 'principal', 'agent'] as const;
export type MemoryScopeKind = (typeof MEMORY_SCOPES)[number];

export const MEMORY_SEGMENT_TYPES = [
  'user_message',
  'reasoning',
  'tool_call',
  'tool_result',
  'response',
] as const;
export type MemorySegmentType = (typeof MEMORY_SEGMENT_TYPES)[number];

/** The longest text a memory search takes: a question, not a document. */
export const MEMORY_QUERY_MAX = 1_000;
export const MEMORY_SEARCH_MAX = 50;

/** An agent profile's long-term memory: off unless enabled. */
export class MemorySettings {
  @IsBoolean() enabled!: boolean;
  @IsOptional() @IsIn(MEMORY_SCOPES) scope?: MemoryScopeKind;
}

/** Where a remembered segment comes from: its run, the run's step, its place in that step. */
export class MemoryAnchor {
  @IsString() run_id!: string;
  @IsInt() iteration_index!: number;
  @IsInt() segment_index!: number;
  @IsIn(MEMORY_SEGMENT_TYPES) segment_type!: MemorySegmentType;
  /** ISO 8601: when the run ended. */
  @IsString() timestamp!: string;
}

/** One remembered segment, as a search finds it: higher relevance is a better match. */
export class MemoryChunk {
  @IsString() content!: string;
  @IsNumber() relevance!: number;
  @ValidateNested() @Type(() => MemoryAnchor) anchor!: MemoryAnchor;
  @IsString() session_id!: string;
  @IsString() agent!: string;
}

export class MemorySearchReply {
  @IsArray() @ValidateNested({ each: true }) @Type(() => MemoryChunk) chunks!: MemoryChunk[];
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;

/** `GET /api/v1/memory/search`: the caller's memories that match `q`, best first. */
export class MemorySearchQuery {
  @IsString() @MinLength(1) @MaxLength(MEMORY_QUERY_MAX) q!: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: `must be a whole number from 1 to ${MEMORY_SEARCH_MAX}` })
  @Min(1, { message: `must be a whole number from 1 to ${MEMORY_SEARCH_MAX}` })
  @Max(MEMORY_SEARCH_MAX, { message: `must be a whole number from 1 to ${MEMORY_SEARCH_MAX}` })
  limit?: number;
}

/** `DELETE /api/v1/memory`: everything of the caller's, or one session's or one run's memories. */
export class MemoryForgetQuery {
  @IsOptional() @IsString() @Matches(ID_PATTERN, { message: 'must be a session id' }) session_id?: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN, { message: 'must be a run id' }) run_id?: string;
}

/** The bus requests add the owner: the caller's principal, set by the gateway, never from a query. */
export class MemorySearchRequest extends MemorySearchQuery {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export class MemoryForgetRequest extends MemoryForgetQuery {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export class MemoryForgetReply {
  /** Segments forgotten. */
  @IsInt() deleted!: number;
}
