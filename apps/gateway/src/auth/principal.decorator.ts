import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './auth.guard';

/** The calling key's principal ('' when authentication is off): the owner of what it creates. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.principal ?? '';
});
