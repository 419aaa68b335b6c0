import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Scope } from '@app/contracts';
import type { AdmittedAhead } from '@app/limits';
import type { Principal } from './api-keys.service';
import type { AuthenticatedRequest } from './auth.guard';

/** The calling key's principal ('' when authentication is off): the owner of what it creates. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.principal ?? '';
});

/** The calling key's id: what rate limits and quotas are counted against. */
export const CurrentKeyId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.keyId ?? 'anonymous';
});

/** The calling key's scopes (every scope when authentication is off): they bound what an agent does for it. */
export const CurrentScopes = createParamDecorator((_: unknown, context: ExecutionContext): Scope[] => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.scopes ?? [];
});

/**
 * The calling key as a run's caller: its principal, id (for its limits), scopes and daily budget,
 * with the run's admission when its request made it (see `AdmitsRun`).
 */
export const CurrentRunCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal & { admittedAhead?: AdmittedAhead } => {
    const { principal, admittedAhead } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (principal && admittedAhead) return { ...principal, admittedAhead };
    return principal ?? { principal: '', keyId: 'anonymous', scopes: [] };
  },
);

/** The calling key's principal, scopes and id together ('anonymous' with authentication off, as for its limits). */
export const CurrentCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): { principal: string; scopes: Scope[]; keyId: string } => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    return {
      principal: principal?.principal ?? '',
      scopes: principal?.scopes ?? [],
      keyId: principal?.keyId ?? 'anonymous',
    };
  },
);
