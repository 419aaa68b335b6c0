import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { AppError, Events, type FnAnnounce, type FunctionCallEvent, Routes } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger, metricsRegistry } from '@app/observability';
import { expectEventually } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `h${Date.now().toString(36)}${process.pid}`;
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class EchoParams {
  @Param({ description: 'text to echo', required: true }) text!: string;
  @Param({ description: 'repeat', type: 'integer', min: 1, max: 3, default: 1 }) times?: number;
  @Param({ description: 'a secret', type: 'string' }) api_token?: string;
}
class WaitParams {
  @Param({ description: 'ms to wait', type: 'integer', default: 10_000 }) ms?: number;
}

const seen = { failures: 0, aborted: [] as string[], running: 0, maxRunning: 0 };

function fn<P extends object>(
  name: string,
  params: new () => P,
  execute: AgentFunction<P>['execute'],
): AgentFunction<P> {
  return { name: `${ns}_${name}`, description: `${name} for tests`, params, execute };
}

const echo = fn('echo', EchoParams, async (p, ctx) => ({
  message: p.text.repeat(p.times ?? 1),
  data: { caller: ctx.caller },
}));
const fail = fn('fail', EchoParams, async () => {
  seen.failures += 1;
  throw new Error('disk full');
});
const wait = fn('wait', WaitParams, (p, ctx) => {
  seen.running += 1;
  seen.maxRunning = Math.max(seen.maxRunning, seen.running);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      seen.running -= 1;
      resolve({ message: 'waited' });
    }, p.ms);
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      seen.running -= 1;
      seen.aborted.push((ctx.signal.reason as AppError).code);
      reject(ctx.signal.reason);
    });
  });
});

describe('FunctionHost (real NATS)', () => {
  let hostBus: Bus;
  let clientBus: Bus;
  let host: FunctionHost;
  let client: FunctionClient;
  const registry = new FunctionRegistry(5_000);
  const records: FunctionCallEvent[] = [];
  const announcements: FnAnnounce[] = [];

  beforeAll(async () => {
    hostBus = await Bus.connect({ url, name: 'host-spec' });
    clientBus = await Bus.connect({ url, name: 'host-spec-client' });
    registry.setGroup('builtin', [echo, fail, wait] as AgentFunction[]);
    host = new FunctionHost({
      bus: hostBus,
      registry,
      logger: quiet,
      provider: `spec-${ns}`,
      instance: 'i1',
      concurrency: 2,
    });
    clientBus.serve(Routes.fnCallsRecord, ({ calls }) => {
      records.push(...calls.filter((c) => c.name.startsWith(ns)));
      return { recorded: calls.length };
    });
    clientBus.subscribe(Events.fnAnnounce, (announced) => {
      if (announced.provider === `spec-${ns}`) announcements.push(announced);
    });
    await clientBus.flush();
    await host.start();
    client = new FunctionClient(clientBus);
  });
  afterAll(async () => {
    await host.stop(1_000);
    await hostBus.drain();
    await clientBus.drain();
  });

  it('answers a call with the function result, defaults applied and the caller passed on', async () => {
    const reply = await client.call(
      echo.name,
      { text: 'hi', times: 2 },
      { timeoutMs: 2_000, caller: { kind: 'api', principal: 'p1' } },
    );
    expect(reply).toMatchObject({
      status: 'success',
      result: { message: 'hihi', data: { caller: { kind: 'api', principal: 'p1' } } },
    });
    expect(reply.elapsed_ms).toBeGreaterThanOrEqual(0);
  });

  it('sends a failed function’s error back to the caller once, without retrying', async () => {
    const before = seen.failures;
    const reply = await client.call(fail.name, { text: 'x' }, { timeoutMs: 2_000 });
    expect(reply).toMatchObject({ status: 'error', error: { code: 'function_error', message: 'disk full' } });
    expect(seen.failures).toBe(before + 1);
  });

  it('lists every bad parameter in an invalid_params reply, before running anything', async () => {
    const reply = await client.call(echo.name, { times: 9, colour: 'red' }, { timeoutMs: 2_000 });
    expect(reply.status).toBe('error');
    if (reply.status !== 'error') return;
    expect(reply.error.code).toBe('invalid_params');
    expect((reply.error.details as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'colour',
      'text',
      'times',
    ]);
  });

  it('aborts the signal at the timeout and answers timeout within the caller’s deadline', async () => {
    const started = Date.now();
    const reply = await client.call(wait.name, {}, { timeoutMs: 300 });
    // The provider stops a little early to answer in time, but reports the limit the caller set.
    expect(reply).toMatchObject({
      status: 'error',
      error: { code: 'timeout', message: `function '${wait.name}' did not finish within 300 ms` },
    });
    expect(Date.now() - started).toBeLessThan(300);
    await expectEventually(() => expect(seen.aborted).toContain('timeout'));
  });

  it('refuses a function outside the caller’s allowed tools', async () => {
    const reply = await client.call(
      echo.name,
      { text: 'x' },
      { timeoutMs: 2_000, allowedTools: [fail.name] },
    );
    expect(reply).toMatchObject({ status: 'error', error: { code: 'forbidden' } });
  });

  it('reports a function nobody serves as unavailable, at once, and a name that is no function as not_found', async () => {
    const started = Date.now();
    const err = await client.call(`${ns}_missing`, {}, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/no provider serves it right now/),
      details: { function: `${ns}_missing` },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(client.call('fn.exec.>', {}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('cancels a running call at its provider when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = client.call(wait.name, {}, { timeoutMs: 5_000, signal: controller.signal });
    await expectEventually(() => expect(seen.running).toBeGreaterThan(0));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    await expectEventually(() => expect(seen.aborted).toContain('cancelled'));
  });

  it('runs at most `concurrency` calls at once; the rest wait their turn', async () => {
    seen.maxRunning = 0;
    await expectEventually(() => expect(seen.running).toBe(0));
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => client.call(wait.name, { ms: 60 }, { timeoutMs: 5_000 })),
    );
    expect(replies.every((r) => r.status === 'success')).toBe(true);
    expect(seen.maxRunning).toBe(2);
  });

  it('answers fn.catalog and announces a change, then serves the new function', async () => {
    await expectEventually(async () => {
      const catalog = await clientBus.gather(Routes.fnCatalog);
      const mine = catalog.find((c) => c.provider === `spec-${ns}`);
      expect(mine?.functions.map((f) => f.name)).toEqual([echo.name, fail.name, wait.name]);
    });
    const extra = fn('extra', EchoParams, async (p) => ({ message: `extra ${p.text}` }));
    registry.setGroup('custom', [extra as AgentFunction]);
    await expectEventually(() =>
      expect(announcements.at(-1)?.functions.map((f) => f.name)).toContain(extra.name),
    );
    expect(announcements.at(-1)?.event).toBe('changed');
    expect(await client.call(extra.name, { text: 'x' }, { timeoutMs: 2_000 })).toMatchObject({
      result: { message: 'extra x' },
    });
    registry.setGroup('custom', []);
    // The unsubscribe reaches the server asynchronously: a call racing it may time out instead.
    await expectEventually(() =>
      expect(client.call(extra.name, { text: 'x' }, { timeoutMs: 500 })).rejects.toMatchObject({
        code: 'unavailable',
      }),
    );
  });

  it('records every finished call with its outcome and a redacted summary of its params', async () => {
    await client.call(
      echo.name,
      { text: 'record me', api_token: 'tok-123456789' },
      { timeoutMs: 2_000, callId: `${ns}-rec`, caller: { kind: 'agent', run_id: 'r1' } },
    );
    const record = await expectEventually(() => {
      const found = records.find((r) => r.id === `${ns}-rec`);
      expect(found).toBeDefined();
      return found!;
    });
    expect(record).toMatchObject({
      name: echo.name,
      status: 'success',
      instance: 'i1',
      caller: { kind: 'agent', run_id: 'r1' },
    });
    expect(record.params_summary).toBe('text="record me", api_token=***');
    expect(records.some((r) => r.name === fail.name && r.status === 'error' && r.error === 'disk full')).toBe(
      true,
    );
    expect(records.some((r) => r.name === wait.name && r.status === 'timeout')).toBe(true);
  });

  it('stops once the calls it was running have ended and are recorded', async () => {
    const bus = await Bus.connect({ url, name: 'host-spec-stopping' });
    let taken!: () => void;
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (taken = resolve));
    const last = fn('last', WaitParams, async () => {
      taken();
      await new Promise<void>((resolve) => (finish = resolve));
      return { message: 'done' };
    });
    const ownRegistry = new FunctionRegistry(5_000);
    ownRegistry.setGroup('builtin', [last] as AgentFunction[]);
    const stopping = new FunctionHost({
      bus,
      registry: ownRegistry,
      logger: quiet,
      provider: `spec-${ns}-stopping`,
      instance: 'i2',
      concurrency: 1,
    });
    await stopping.start();
    try {
      const reply = client.call(last.name, {}, { timeoutMs: 2_000, callId: `${ns}-last` });
      await running;
      const stopped = stopping.stop(1_000);
      finish();
      await stopped;
      expect(records.find((r) => r.id === `${ns}-last`)).toMatchObject({ status: 'success', instance: 'i2' });
      expect((await reply).status).toBe('success');
    } finally {
      await bus.drain();
    }
  });

  it('counts calls by function and outcome, and times them, in the Prometheus metrics', async () => {
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(
      new RegExp(`^ac_function_calls_total\\{function="${fail.name}",status="error"\\} [1-9]`, 'm'),
    );
    expect(text).toMatch(
      new RegExp(`^ac_function_duration_seconds_count\\{function="${echo.name}"\\} [1-9]`, 'm'),
    );
  });
});
