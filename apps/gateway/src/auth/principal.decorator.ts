import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './auth.guard';

/** The calling key's principal ('' when authentication is off): the owner of what it creates. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.principal ?? '';
});

/** The calling key's id: what rate limits and quotas are counted against. */
export const CurrentKeyId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.keyId ?? 'anonymous';
});
