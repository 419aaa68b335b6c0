import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** The spans a usage chart covers: the last 24 hours by the hour, or the last 7 days by 6 hours. */
export const USAGE_WINDOWS = ['day', 'week'] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];

export const USAGE_BUCKETS: Record<UsageWindow, { buckets: number; bucketMs: number }> = {
  day: { buckets: 24, bucketMs: 3_600_000 },
  week: { buckets: 28, bucketMs: 6 * 3_600_000 },
};

/** `GET /api/v1/usage`. */
export class UsageQuery {
  @IsOptional()
  @IsIn(USAGE_WINDOWS, { message: `must be one of ${USAGE_WINDOWS.join(', ')}` })
  window?: UsageWindow;
}

/** Body of `agent.usage.stats`: the window, and whose runs (none: every principal's, for an admin). */
export class UsageStatsRequest extends UsageQuery {
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

/** The runs that started in one bucket (or a whole window): how many, what they spent, how long they took. */
export class UsageBucket {
  /** The bucket's start (ISO 8601); a total has the window's. */
  @IsString() start!: string;
  @IsInt() runs!: number;
  /** Runs that ended `failed` (an error, a timeout...). */
  @IsInt() failed!: number;
  @IsInt() prompt_tokens!: number;
  /** Prompt tokens a provider's cache served (billed lower); 0 when none was reported. */
  @IsInt() cached_prompt_tokens!: number;
  @IsInt() completion_tokens!: number;
  /** USD at each run's model's price; runs of models without a price add nothing. */
  @IsNumber() cost_usd!: number;
  /** Of the runs that ended: mean and 95th percentile of their wall time, in ms; null when none ended. */
  @IsOptional() @IsInt() avg_ms!: number | null;
  @IsOptional() @IsInt() p95_ms!: number | null;
}

/** One agent's or one key's buckets, oldest first, and its total. */
export class UsageSeries {
  /** The agent's name, or the key's id (`unknown`: runs started before keys were recorded, or by no key). */
  @IsString() key!: string;
  /** A key's name, filled in by the gateway where it knows the key. */
  @IsOptional() @IsString() label?: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => UsageBucket) buckets!: UsageBucket[];
  @ValidateNested() @Type(() => UsageBucket) total!: UsageBucket;
}

/** `GET /api/v1/usage`: the caller's runs (every principal's for an admin) over the window, by agent and by key. */
export class UsageView {
  @IsIn(USAGE_WINDOWS) window!: UsageWindow;
  @IsString() from!: string;
  @IsString() to!: string;
  @IsInt() bucket_ms!: number;
  @ValidateNested() @Type(() => UsageBucket) total!: UsageBucket;
  @IsArray() @ValidateNested({ each: true }) @Type(() => UsageSeries) by_agent!: UsageSeries[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => UsageSeries) by_key!: UsageSeries[];
  /** True when the window held more runs than are read for a chart (the newest are counted). */
  @IsBoolean() truncated!: boolean;
}
