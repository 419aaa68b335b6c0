import { Inject, Injectable } from '@nestjs/common';
import { Bus, NoRespondersError } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import {
  AGENT_FUNCTION_PROVIDER,
  AppError,
  type FnExecReply,
  type FnInvokeRequest,
  type FunctionDefinition,
  type InvokeFunctionBody,
  Routes,
  UnavailableError,
} from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';
import type { Principal } from '../auth/api-keys.service';
import { UsageLimits } from '@app/limits';

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
 * unavailable (NATS, the executor or the function's provider), 504 no answer at all. An agent's
 * function (provider `agents`) runs a turn of that agent, so it is held to the calling key's
 * limits as a chat turn is (429 when refused).
 */
@Injectable()
export class FunctionsService {
  constructor(
    @Inject(FunctionCatalog) private readonly catalog: FunctionCatalog,
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
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
    caller: Principal,
    idempotencyKey?: string,
  ): Promise<FnExecReply> {
    const definition = await this.get(name);
    const timeout_ms = body.timeout_ms ?? definition.timeout_ms ?? this.config.functions.default_timeout;
    const request = {
      name,
      params: body.params ?? {},
      timeout_ms,
      principal: caller.principal || undefined,
      key_id: caller.keyId,
      scopes: caller.scopes,
      idempotency_key: idempotencyKey,
    };
    const reply =
      definition.provider === AGENT_FUNCTION_PROVIDER
        ? await this.agentRun(caller, () => this.relay(request))
        : await this.relay(request);
    if (reply.status === 'error' && !FUNCTION_OUTCOMES.has(reply.error.code))
      throw AppError.fromBody(reply.error);
    return reply;
  }

  /** An agent's run for the key: one of its run slots while it runs, its tokens and cost charged after. */
  private async agentRun(caller: Principal, relay: () => Promise<FnExecReply>): Promise<FnExecReply> {
    const { reply } = await this.limits.withinLimits(caller, async () => {
      const reply = await relay();
      return { reply, usage: reply.status === 'success' ? reply.result.usage : undefined };
    });
    return reply;
  }

  private relay(request: FnInvokeRequest): Promise<FnExecReply> {
    return this.bus
      .request(Routes.fnInvoke, request, { timeoutMs: request.timeout_ms + RELAY_GRACE_MS })
      .catch((err: unknown) => {
        if (!(err instanceof NoRespondersError)) throw err;
        throw new UnavailableError('no agent-executor answers: it relays direct function calls', {
          part: 'agent-executor',
        });
      });
  }
}
