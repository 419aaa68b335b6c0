import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { CALL_ID_PATTERN, CallerDto, FUNCTION_NAME_PATTERN } from './functions';

export const FUNCTION_CALL_STATUSES = ['success', 'error', 'timeout', 'cancelled'] as const;
export type FunctionCallStatus = (typeof FUNCTION_CALL_STATUSES)[number];

/** One finished call as its provider saw it; the params are only a bounded, redacted summary. */
export class FunctionCallEvent {
  @IsString() @Matches(CALL_ID_PATTERN) id!: string;
  @IsString() @Matches(FUNCTION_NAME_PATTERN) name!: string;
  @IsString() @MaxLength(64) provider!: string;
  @IsString() @MaxLength(128) instance!: string;
  @IsOptional() @ValidateNested() @Type(() => CallerDto) caller?: CallerDto;
  @IsIn(FUNCTION_CALL_STATUSES) status!: FunctionCallStatus;
  @IsOptional() @IsString() @MaxLength(32) error_code?: string;
  @IsOptional() @IsString() @MaxLength(2_000) error?: string;
  @IsInt() @Min(0) elapsed_ms!: number;
  @IsString() @MaxLength(1_024) params_summary!: string;
  /** Epoch ms when the call finished. */
  @IsInt() @Min(0) finished_at!: number;
}

/** Body of `fn.calls.record`: providers batch their finished calls. */
export class FunctionCallBatch {
  @IsArray()
  @ArrayMaxSize(1_000)
  @ValidateNested({ each: true })
  @Type(() => FunctionCallEvent)
  calls!: FunctionCallEvent[];
}
