import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';

export const SCOPES = [
  'chat',
  'functions:read',
  'functions:invoke',
  'tasks:read',
  'tasks:write',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export class CreateApiKeyRequest {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsArray() @ArrayNotEmpty() @IsIn(SCOPES, { each: true }) scopes!: Scope[];
  /** Whose resources the key acts for; defaults to a principal of its own. */
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9_.:@-]{1,128}$/) principal?: string;
}

/** An API key as lists show it; optional fields here are present, possibly null. */
export class ApiKeyView {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsString() principal!: string;
  /** The key's first characters, to recognise it. */
  @IsString() prefix!: string;
  @IsArray() @IsIn(SCOPES, { each: true }) scopes!: Scope[];
  @IsString() created_at!: string;
  @IsOptional() @IsString() revoked_at!: string | null;
  @IsOptional() @IsString() last_used_at!: string | null;
}

/** Returned once, at creation: the only time the key itself is shown. */
export class CreatedApiKey extends ApiKeyView {
  @IsString() key!: string;
}

/** `GET /api/v1/keys`. */
export class ApiKeyList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ApiKeyView) keys!: ApiKeyView[];
}
