import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { ErrorBody } from './errors';

export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

export interface ParameterSchema {
  type: JsonSchemaType;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: { type: JsonSchemaType };
}

/** What a function looks like from outside: the prompt, `GET /functions` and validation share it. */
export interface FunctionDefinition {
  name: string;
  description: string;
  parameters: { type: 'object'; properties: Record<string, ParameterSchema>; required: string[] };
  timeout_ms?: number;
  /** Who serves it: `builtin`, `custom`, `scheduler`, … */
  provider?: string;
}

export interface FunctionResult {
  data?: unknown;
  markdown?: string;
  message?: string;
}

export const FUNCTION_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export class CallerDto {
  @IsOptional() @IsString() @MaxLength(128) agent?: string;
  @IsOptional() @IsString() @MaxLength(64) run_id?: string;
  @IsOptional() @IsString() @MaxLength(64) session_id?: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** `agent`, `api`, `scheduler` */
  @IsOptional() @IsString() @MaxLength(32) kind?: string;
}

/** Body of `fn.exec.<name>`. The deadline is absolute (epoch ms) so it survives queueing. */
export class FnExecRequest {
  @IsObject() params!: Record<string, unknown>;

  @IsOptional() @IsInt() @Min(0) deadline_ms?: number;

  @IsOptional() @IsInt() @Min(1) @Max(3_600_000) timeout_ms?: number;

  @IsOptional() @ValidateNested() @Type(() => CallerDto) caller?: CallerDto;

  /** The run's allow-list: a provider refuses any name outside it (defence in depth). */
  @IsOptional() @IsArray() @IsString({ each: true }) @Matches(FUNCTION_NAME_PATTERN, { each: true })
  allowed_tools?: string[];
}

export type FnExecReply =
  | { status: 'success'; result: FunctionResult; elapsed_ms: number }
  | { status: 'error'; error: ErrorBody; elapsed_ms: number };

/** Reply of every provider to `fn.catalog`. */
export interface FnCatalogReply {
  provider: string;
  instance: string;
  functions: FunctionDefinition[];
}
