import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
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

/** Whose resources a key acts for: the owner of its sessions, runs and tasks. */
export const PRINCIPAL_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;

/**
 * The one rule deciding what a caller may do, over REST and for an agent acting for it alike:
 * `admin` includes every scope; no scopes (a caller that sent none) allow nothing.
 */
export function hasScope(scopes: readonly string[] | undefined, needed: Scope): boolean {
  return scopes !== undefined && (scopes.includes('admin') || scopes.includes(needed));
}

/** A list of scopes on the bus: the caller's, carried to whatever acts for it. */
export function IsScopes(): PropertyDecorator {
  return (target, property) => {
    IsArray()(target, property);
    ArrayMaxSize(SCOPES.length * 2)(target, property);
    IsIn(SCOPES, { each: true })(target, property);
  };
}

export class CreateApiKeyRequest {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsArray() @ArrayNotEmpty() @IsIn(SCOPES, { each: true }) scopes!: Scope[];
  /** Whose resources the key acts for; defaults to a principal of its own. */
  @IsOptional() @IsString() @Matches(PRINCIPAL_PATTERN) principal?: string;
  /** USD the key's runs may spend a day (UTC); the platform's `security.daily_cost_budget_usd` when absent. */
  @IsOptional() @IsNumber() @Min(0) daily_cost_budget_usd?: number;
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
  /** The key's own daily budget in USD; null: the platform's default. */
  @IsOptional() @IsNumber() daily_cost_budget_usd!: number | null;
}

/** Returned once, at creation: the only time the key itself is shown. */
export class CreatedApiKey extends ApiKeyView {
  @IsString() key!: string;
}

/** `GET /api/v1/keys`. */
export class ApiKeyList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ApiKeyView) keys!: ApiKeyView[];
}

/** `GET /api/v1/me`: who the calling key is and what it may do (a console hides what it may not). */
export class WhoAmIView {
  @IsString() principal!: string;
  @IsArray() @IsIn(SCOPES, { each: true }) scopes!: Scope[];
  @IsString() key_id!: string;
}
