import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  type ValidationOptions,
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
export function IsScopes(options?: ValidationOptions): PropertyDecorator {
  return (target, property) => {
    IsArray(options)(target, property);
    ArrayMaxSize(SCOPES.length * 2, options)(target, property);
    IsIn(SCOPES, { ...options, each: true })(target, property);
  };
}

export class CreateApiKeyRequest {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsArray() @ArrayNotEmpty() @IsIn(SCOPES, { each: true }) scopes!: Scope[];
  /** Whose resources the key acts for; defaults to a principal of its own. */
  @IsOptional() @IsString() @Matches(PRINCIPAL_PATTERN) principal?: string;
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
