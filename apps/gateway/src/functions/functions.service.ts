import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import {
  AppError,
  type FnExecReply,
  type FnInvokeRequest,
  type FunctionDefinition,
  type InvokeFunctionBody,
  NotFoundError,
  type Scope,
  Subjects,
} from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';

/** How long the gateway waits past the call's own limit for the executor's answer. */
const RELAY_GRACE_MS = 1_000;

/**
 * The function catalogue and direct invocation for API clients; an executor relays the call (the
 * gateway may not publish `fn.exec.*`). An invocation whose function ran and failed is a result
 * (`status: "error"`, HTTP 200, as AWS Lambda's Invoke does); a call that was refused or never
 * finished (invalid params, unknown, forbidden, timeout, …) is an HTTP error.
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

  async get(name: string): Promise<FunctionDefinition> {
    const definition = await this.catalog.get(name);
    if (!definition) throw new NotFoundError('function', name);
    return definition;
  }

  async invoke(
    name: string,
    body: InvokeFunctionBody,
    { principal, scopes }: { principal: string; scopes: Scope[] },
  ): Promise<FnExecReply> {
    const definition = await this.get(name);
    const timeout_ms = body.timeout_ms ?? definition.timeout_ms ?? this.config.functions.default_timeout;
    const request: FnInvokeRequest = {
      name,
      params: body.params ?? {},
      timeout_ms,
      principal: principal || undefined,
      scopes,
    };
    const reply = await this.bus.request<FnExecReply>(Subjects.fnInvoke, request, {
      timeoutMs: timeout_ms + RELAY_GRACE_MS,
    });
    if (reply.status === 'error' && reply.error.code !== 'function_error')
      throw AppError.fromBody(reply.error);
    return reply;
  }
}
