import { Inject, Injectable } from '@nestjs/common';
import type { FunctionCallOutcome, FunctionCallRequest, Functions } from '@app/agent-core';
import { type ErrorBody, type FunctionDefinition, toAppError } from '@app/contracts';
import { FunctionClient, NoProviderError } from '@app/functions';
import { FunctionCatalogService } from './function-catalog.service';

/**
 * The run engine's functions, over the bus: the platform's one catalogue and one function client
 * (`fn.exec.<name>`). A call that reached no provider, or no answer, becomes the call's error
 * with the function client's own code and message.
 */
@Injectable()
export class BusFunctions implements Functions {
  constructor(
    @Inject(FunctionClient) private readonly functions: FunctionClient,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
  ) {}

  catalogue(): Promise<readonly FunctionDefinition[]> {
    return this.catalog.list();
  }

  find(name: string): Promise<FunctionDefinition | undefined> {
    return this.catalog.find(name);
  }

  async call(request: FunctionCallRequest): Promise<FunctionCallOutcome> {
    try {
      const reply = await this.functions.call(request.name, request.args, {
        timeoutMs: request.timeoutMs,
        callId: request.callId,
        ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
        caller: request.caller,
        ...(request.allowedTools ? { allowedTools: request.allowedTools } : {}),
        signal: request.signal,
      });
      return reply.status === 'success'
        ? { status: 'success', result: reply.result ?? {} }
        : { status: 'error', error: reply.error };
    } catch (err) {
      return { status: 'error', error: busFailure(request, err) };
    }
  }
}

/**
 * The client's own error, as it said it; only "nobody serves this name" is told to the model as
 * `not_found`, since to a model a name nobody serves is a name it should not call again.
 */
function busFailure({ name, signal }: FunctionCallRequest, err: unknown): ErrorBody {
  if (signal.aborted)
    return { code: 'cancelled', message: `the run was stopped (${String(signal.reason)}) while ${name} ran` };
  if (err instanceof NoProviderError)
    return { code: 'not_found', message: err.message, details: err.details };
  return toAppError(err).toBody();
}
