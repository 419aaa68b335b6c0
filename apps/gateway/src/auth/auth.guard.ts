import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { PlatformConfig } from '@app/config';
import { AppError, hasScope, SCOPES } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { ApiKeysService, type Principal } from './api-keys.service';
import { ADMITS_RUN } from './admits-run.decorator';
import { RateLimiter } from './rate-limiter.service';
import { requiredScope } from '../common/scope-policy';
import { type AdmittedAhead, UsageLimits } from '@app/limits';

export type AuthenticatedRequest = Request & { principal?: Principal; admittedAhead?: AdmittedAhead };

const OPEN: Principal = { keyId: 'anonymous', principal: '', scopes: [...SCOPES] };

/** Every request: a valid, unrevoked key with the route's scope, within its rate limit. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly limiter: RateLimiter,
    private readonly limits: UsageLimits,
    private readonly reflector: Reflector,
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
    const principal = await this.keys.authenticate(keyOf(req));
    if (!principal) throw new AppError('unauthorized', 'unknown or revoked API key');
    // the API document reveals no data: any valid key may read it
    const needed = scope === 'metrics' ? 'admin' : scope;
    if (needed !== 'docs' && needed !== 'authenticated' && !hasScope(principal.scopes, needed)) {
      throw new AppError('forbidden', `this API key lacks the '${needed}' scope`);
    }
    const startsRun = this.reflector.get<((req: Request) => boolean) | undefined>(
      ADMITS_RUN,
      context.getHandler(),
    );
    if (startsRun?.(req)) req.admittedAhead = await this.admitAhead(principal, context);
    else await this.limiter.hit(principal.keyId);
    req.principal = principal;
    return true;
  }

  /** The rate-limit hit and the run's admission together; a slot the request did not use is freed at its end. */
  private async admitAhead(principal: Principal, context: ExecutionContext): Promise<AdmittedAhead> {
    const now = Date.now();
    const { count, ahead } = await this.limits.admitAhead(
      principal,
      this.limiter.window(principal.keyId, now),
      now,
    );
    this.limiter.refuseOver(count, now);
    context
      .switchToHttp()
      .getResponse<Response>()
      .once('close', () => ahead.dropUnused());
    return ahead;
  }
}

/**
 * What a key looks like: one word, not absurdly long. A well-formed key that no key matches is
 * "unknown", never "malformed" (short ones included: the lookup decides).
 */
const KEY_SHAPE = /^\S{1,512}$/;

/** The key from `Authorization: Bearer`, or from `x-api-key` as Anthropic's clients send it. */
function keyOf(req: Request): string {
  const apiKey = req.headers['x-api-key'];
  if (!req.headers.authorization && typeof apiKey === 'string') {
    if (!KEY_SHAPE.test(apiKey.trim())) throw new AppError('unauthorized', 'malformed x-api-key header');
    return apiKey.trim();
  }
  return bearerToken(req.headers.authorization);
}

function bearerToken(header: string | undefined): string {
  if (!header) throw new AppError('unauthorized', "missing API key: send 'Authorization: Bearer <key>'");
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (match && !KEY_SHAPE.test(match[1]))
    throw new AppError('unauthorized', 'malformed API key: one word of at most 512 characters');
  if (!match) throw new AppError('unauthorized', "malformed Authorization header: expected 'Bearer <key>'");
  return match[1];
}
