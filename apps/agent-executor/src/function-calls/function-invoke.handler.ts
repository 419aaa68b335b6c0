import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { type FnInvokeRequest, Routes } from '@app/contracts';
import { FunctionClient } from '@app/functions';

/**
 * NATS in: an API client's direct function call, relayed from the gateway (only executors and the
 * scheduler may publish `fn.exec.*`). The provider's FnExecReply goes back as it is; a call no
 * provider judged (nobody serves the name right now, no answer in time) becomes the bus error.
 */
@Injectable()
export class FunctionInvokeHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(FunctionClient) private readonly client: FunctionClient,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [answer(Routes.fnInvoke, (r) => this.invoke(r))];
  }

  async invoke(request: FnInvokeRequest) {
    const caller = {
      kind: 'api',
      principal: request.principal || undefined,
      ...(request.key_id ? { key_id: request.key_id } : {}),
      scopes: request.scopes,
    };
    return this.client.call(request.name, request.params, {
      timeoutMs: request.timeout_ms,
      caller,
      idempotencyKey: request.idempotency_key,
    });
  }
}
