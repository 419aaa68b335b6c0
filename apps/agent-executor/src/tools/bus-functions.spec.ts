import { describe, expect, it, vi } from 'vitest';
import type { FunctionCallRequest } from '@app/agent-core';
import { type Bus, NoRespondersError, ResponderGoneError } from '@app/bus';
import { TimeoutError } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import { BusFunctions } from './bus-functions';
import type { FunctionCatalogService } from './function-catalog.service';

const request: FunctionCallRequest = {
  name: 'send_message',
  args: { to: 'bob' },
  callId: 'call_1',
  signal: new AbortController().signal,
  timeoutMs: 1_000,
  caller: { run_id: 'run_1' },
};

/** The real function client over a bus whose request fails the way NATS does. */
function callerOver(bus: Partial<Bus>): BusFunctions {
  const client = new FunctionClient({ connected: true, publish: vi.fn(), ...bus } as unknown as Bus);
  return new BusFunctions(client, {} as FunctionCatalogService);
}

const failing = (err: Error) => callerOver({ request: vi.fn().mockRejectedValue(err) });

describe('BusFunctions', () => {
  it('sends the engine’s idempotency key with the call, and none when the engine names none', async () => {
    const call = vi.fn().mockResolvedValue({ status: 'success', result: { message: 'ok' }, elapsed_ms: 1 });
    const caller = new BusFunctions({ call } as unknown as FunctionClient, {} as FunctionCatalogService);
    await caller.call({ ...request, idempotencyKey: 'run_1:3:0' });
    await caller.call(request);
    expect(call.mock.calls[0][2]).toMatchObject({ idempotencyKey: 'run_1:3:0', callId: 'call_1' });
    expect(call.mock.calls[1][2]).not.toHaveProperty('idempotencyKey');
  });

  it('tells the model not_found only when nobody serves the name', async () => {
    const outcome = await failing(new NoRespondersError('fn.exec.send_message')).call(request);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'not_found', message: expect.stringContaining('no provider serves it') },
    });
  });

  it('tells the model a NATS outage is unavailable, not that the function does not exist', async () => {
    const outcome = await callerOver({ connected: false }).call(request);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'unavailable', message: expect.stringContaining('NATS is unreachable') },
    });
  });

  it('tells the model a provider that did not take the call is unavailable (stalled or gone)', async () => {
    const stalled = new ResponderGoneError('fn.exec.send_message', undefined, 3_000);
    const outcome = await failing(stalled).call(request);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'unavailable', message: expect.stringContaining('did not take the call') },
    });
  });

  it('keeps the client’s timeout as it said it', async () => {
    const outcome = await failing(new TimeoutError("'fn.exec.send_message' did not answer")).call(request);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { code: 'timeout', message: "function 'send_message' gave no answer within 1000 ms" },
    });
  });

  it('answers cancelled when the run stopped during the call', async () => {
    const stop = new AbortController();
    const caller = callerOver({ request: vi.fn().mockReturnValue(new Promise(() => {})) });
    const outcome = caller.call({ ...request, signal: stop.signal });
    stop.abort('user stop');
    await expect(outcome).resolves.toMatchObject({ status: 'error', error: { code: 'cancelled' } });
  });
});
