import { Inject, Injectable } from '@nestjs/common';
import { Bus, NoRespondersError } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import {
  AppError,
  type FnExecReply,
  type FunctionDefinition,
  type InvokeFunctionBody,
  Routes,
  type Scope,
  UnavailableError,
} from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';

/** How long the gateway waits past the call's own limit for the executor's answer. */
const RELAY_GRACE_MS = 1_000;

/** What a function itself did: an invocation that reached it answers 200 with this outcome. */
const FUNCTION_OUTCOMES = new Set(['function_error', 'timeout']);

/**
 * The function catalogue and direct invocation for API clients; an executor relays the call (the
 * gateway may not publish `fn.exec.*`). The rule: a call that reached its function answers 200
 * with the function's outcome, `status: "success"` or `status: "error"` with `function_error` (it
 * threw) or `timeout` (it ran past its time limit), as AWS Lambda's Invoke does. Only a call the
 * platform could not make is an HTTP error: 400 invalid params, 403, 404 unknown function, 503
 * unavailable (NATS, the executor or the function's provider), 504 no answer at all.
 */
@Injectable()
export class FunctionsService {
  constructor(
    @Inject(FunctionCatalog) private readonly catalog: FunctionCatalog,
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  list(): Promise<FunctionDefinition[]> {
    return this.catalog.list();
  }

  get(name: string): Promise<FunctionDefinition> {
    return this.catalog.require(name);
  }

  async invoke(
    name: string,
    body: InvokeFunctionBody,
    { principal, scopes }: { principal: string; scopes: Scope[] },
    idempotencyKey?: string,
  ): Promise<FnExecReply> {
    const definition = await this.get(name);
    const timeout_ms = body.timeout_ms ?? definition.timeout_ms ?? this.config.functions.default_timeout;
    const request = {
      name,
      params: body.params ?? {},
      timeout_ms,
      principal: principal || undefined,
      scopes,
      idempotency_key: idempotencyKey,
    };
    const reply = await this.bus
      .request(Routes.fnInvoke, request, { timeoutMs: timeout_ms + RELAY_GRACE_MS })
      .catch((err: unknown) => {
        if (!(err instanceof NoRespondersError)) throw err;
        throw new UnavailableError('no agent-executor answers: it relays direct function calls', {
          part: 'agent-executor',
        });
      });
    if (reply.status === 'error' && !FUNCTION_OUTCOMES.has(reply.error.code))
      throw AppError.fromBody(reply.error);
    return reply;
  }
}
