import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { FunctionInvokeHandler } from './function-invoke.handler';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `i${Date.now().toString(36)}${process.pid}`;
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class WhoParams {
  @Param({ description: 'anything' }) note?: string;
}

const whoami: AgentFunction<WhoParams> = {
  name: `${ns}_whoami`,
  description: 'returns its caller',
  params: WhoParams,
  execute: async (_p, ctx) => ({ data: ctx.caller }),
};

let counted = 0;
const count: AgentFunction<WhoParams> = {
  name: `${ns}_count`,
  description: 'counts its calls',
  params: WhoParams,
  execute: async () => ({ message: `call ${++counted}` }),
};

describe('FunctionInvokeHandler (real NATS)', () => {
  let bus: Bus;
  let host: FunctionHost;
  let handler: FunctionInvokeHandler;

  beforeAll(async () => {
    bus = await Bus.connect({ url, name: 'invoke-spec' });
    const registry = new FunctionRegistry(5_000);
    registry.setGroup('builtin', [whoami, count] as AgentFunction[]);
    host = new FunctionHost({
      bus,
      registry,
      logger: quiet,
      provider: `inv-${ns}`,
      instance: 'i1',
      concurrency: 4,
    });
    await host.start();
    handler = new FunctionInvokeHandler(bus, new FunctionClient(bus));
  });
  afterAll(async () => {
    await host.stop(100);
    await bus.drain();
  });

  it('relays an API call to the function’s provider as an api caller with its principal', async () => {
    const reply = await handler.invoke({
      name: whoami.name,
      params: {},
      timeout_ms: 2_000,
      principal: 'team-a',
    });
    expect(reply).toMatchObject({
      status: 'success',
      result: { data: { kind: 'api', principal: 'team-a' } },
    });
  });

  it('passes an API client’s idempotency key on: the call sent again is not run again', async () => {
    const request = { name: count.name, params: {}, timeout_ms: 2_000, idempotency_key: `${ns}-once` };
    const first = await handler.invoke(request);
    expect(await handler.invoke(request)).toEqual({ ...first, elapsed_ms: expect.any(Number) });
    expect(first).toMatchObject({ status: 'success', result: { message: 'call 1' } });
    expect(counted).toBe(1);
  });

  it('passes the provider’s refusal back as a reply', async () => {
    expect(await handler.invoke({ name: whoami.name, params: { x: 1 }, timeout_ms: 2_000 })).toMatchObject({
      status: 'error',
      error: { code: 'invalid_params' },
    });
  });

  it('fails with unavailable for a function nobody serves right now, and with invalid_params for a malformed request', async () => {
    // Whether such a name exists at all is the gateway's catalogue to say (404); here nobody answers.
    await expect(handler.invoke({ name: `${ns}_nope`, params: {}, timeout_ms: 1_000 })).rejects.toMatchObject(
      { code: 'unavailable', details: { function: `${ns}_nope` } },
    );
    expect(() => Routes.fnInvoke.parse({ name: 'Bad Name', params: [], timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_params' }),
    );
  });
});
