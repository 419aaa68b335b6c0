import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
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

export interface ApiKeyView {
  id: string;
  name: string;
  principal: string;
  prefix: string;
  scopes: Scope[];
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Returned once, at creation: the only time the key itself is shown. */
export interface CreatedApiKey extends ApiKeyView {
  key: string;
}
