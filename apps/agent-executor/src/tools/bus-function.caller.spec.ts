import { describe, expect, it, vi } from 'vitest';
import type { FunctionCallRequest } from '@app/agent-core';
import type { FunctionClient } from '@app/functions';
import { BusFunctionCaller } from './bus-function.caller';
import type { FunctionCatalogService } from './function-catalog.service';

describe('BusFunctionCaller', () => {
  it('sends the engine’s idempotency key with the call, and none when the engine names none', async () => {
    const call = vi.fn().mockResolvedValue({ status: 'success', result: { message: 'ok' }, elapsed_ms: 1 });
    const caller = new BusFunctionCaller({ call } as unknown as FunctionClient, {} as FunctionCatalogService);
    const request: FunctionCallRequest = {
      name: 'send_message',
      args: { to: 'bob' },
      callId: 'call_1',
      signal: new AbortController().signal,
      timeoutMs: 1_000,
      caller: { run_id: 'run_1' },
    };
    await caller.call({ ...request, idempotencyKey: 'run_1:3:0' });
    await caller.call(request);
    expect(call.mock.calls[0][2]).toMatchObject({ idempotencyKey: 'run_1:3:0', callId: 'call_1' });
    expect(call.mock.calls[1][2]).not.toHaveProperty('idempotencyKey');
  });
});
