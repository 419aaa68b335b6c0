import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { PlatformConfig } from '@app/config';
import { AppError, hasScope, SCOPES } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { ApiKeysService, type Principal } from './api-keys.service';
import { RateLimiter } from './rate-limiter.service';
import { requiredScope } from './scope-policy';

export type AuthenticatedRequest = Request & { principal?: Principal };

const OPEN: Principal = { keyId: 'anonymous', principal: '', scopes: [...SCOPES] };

/** Every request: a valid, unrevoked key with the route's scope, within its rate limit. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly limiter: RateLimiter,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const scope = requiredScope(req.method, req.path);
    const { metrics_public, docs_public } = this.config.security;
    if (scope === 'public' || (scope === 'metrics' && metrics_public) || (scope === 'docs' && docs_public)) {
      return true;
    }
    if (!this.config.security.auth) {
      req.principal = OPEN;
      return true;
    }
    const principal = await this.keys.authenticate(bearerToken(req.headers.authorization));
    if (!principal) throw new AppError('unauthorized', 'invalid or revoked API key');
    // the API document reveals no data: any valid key may read it
    const needed = scope === 'metrics' ? 'admin' : scope;
    if (needed !== 'docs' && needed !== 'authenticated' && !hasScope(principal.scopes, needed)) {
      throw new AppError('forbidden', `this API key lacks the '${needed}' scope`);
    }
    await this.limiter.hit(principal.keyId);
    req.principal = principal;
    return true;
  }
}

function bearerToken(header: string | undefined): string {
  if (!header) throw new AppError('unauthorized', "missing API key: send 'Authorization: Bearer <key>'");
  const match = /^Bearer\s+(\S{8,512})$/i.exec(header.trim());
  if (!match) throw new AppError('unauthorized', "malformed Authorization header: expected 'Bearer <key>'");
  return match[1];
}
