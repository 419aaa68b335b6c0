import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { FINISH_REASONS, type FinishReason, ID_PATTERN } from './agent';
import { RUN_STATUSES, type RunStatus } from './agent-runs';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A query-string number: `?limit=5` arrives as text. Anything but digits stays text and is refused. */
const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;

/** Cursor pagination shared by every list: `next_cursor` of one page asks for the next. */
export class PageQuery {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
  @Min(1, { message: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be a next_cursor from a previous page' })
  cursor?: string;
}

/** `GET /api/v1/sessions`: the caller's sessions, most recently active first. */
export class ListSessionsQuery extends PageQuery {
  /** Text to look for in a session's title or messages (case-insensitive). */
  @IsOptional() @IsString() @MaxLength(200) q?: string;
}

/** `GET /api/v1/runs`: the caller's runs, newest first. */
export class ListRunsQuery extends PageQuery {
  @IsOptional() @IsString() @Matches(ID_PATTERN, { message: 'must be a session id' }) session_id?: string;

  @IsOptional()
  @IsIn(RUN_STATUSES, { message: `must be one of ${RUN_STATUSES.join(', ')}` })
  status?: RunStatus;

  @IsOptional() @IsString() @MaxLength(64) agent?: string;
}

/** The bus requests add the owner: the caller's principal, set by the gateway, never from a query. */
export class ListSessionsRequest extends ListSessionsQuery {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export class ListRunsRequest extends ListRunsQuery {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

/** One session in a list. Optional fields here are present, possibly null. */
export class SessionSummary {
  @IsString() id!: string;
  @IsString() agent!: string;
  @IsOptional() @IsString() title!: string | null;
  @IsString() created_at!: string;
  @IsString() updated_at!: string;
}

/** One run in a list, without its trace (`GET /api/v1/runs/:id` has it). */
export class RunSummary {
  @IsString() id!: string;
  @IsOptional() @IsString() session_id!: string | null;
  @IsString() agent!: string;
  @IsString() mode!: string;
  @IsIn(RUN_STATUSES) status!: RunStatus;
  @IsString() input!: string;
  @IsOptional() @IsIn(FINISH_REASONS) finish_reason!: FinishReason | null;
  @IsOptional() @IsInt() total_ms!: number | null;
  @IsString() created_at!: string;
  @IsOptional() @IsString() finished_at!: string | null;
}

/** `GET /api/v1/sessions`. */
export class SessionPage implements Page<SessionSummary> {
  @IsArray() @ValidateNested({ each: true }) @Type(() => SessionSummary) items!: SessionSummary[];
  @IsOptional() @IsString() next_cursor!: string | null;
}

/** `GET /api/v1/runs`. */
export class RunPage implements Page<RunSummary> {
  @IsArray() @ValidateNested({ each: true }) @Type(() => RunSummary) items!: RunSummary[];
  @IsOptional() @IsString() next_cursor!: string | null;
}
