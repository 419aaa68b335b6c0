import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { type FnExecReply, type FunctionCallEvent, Routes } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import { expectEventually, type ServiceProcess, startService } from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from './plugins';

const SECRET = 'sk-runner-secret-0123456789';
const runnerEnv = (dir: string, extra: Record<string, string> = {}) => ({
  FUNCTIONS_DIR: dir,
  HTTP_ALLOWED_DOMAINS: '*',
  LLM_API_KEY: SECRET,
  FUNCTIONS_SANDBOX_WORKERS: '8',
  ...extra,
});

describe('function runners (built processes, real NATS)', () => {
  const ns = uniqueNamespace('e');
  const name = (fn: string) => `${ns}_${fn}`;
  const runners: ServiceProcess[] = [];
  const records: FunctionCallEvent[] = [];
  let bus: Bus;
  let client: FunctionClient;

  beforeAll(async () => {
    const dir = pluginFolder(testPlugins(ns));
    runners.push(
      ...(await Promise.all([
        startService('function-runner', runnerEnv(dir)),
        startService('function-runner', runnerEnv(dir)),
      ])),
    );
    bus = await Bus.connect({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'runners-spec' });
    bus.serve(Routes.fnCallsRecord, ({ calls }) => {
      records.push(...calls.filter((c) => c.name.startsWith(ns)));
      return { recorded: calls.length };
    });
    await bus.flush();
    client = new FunctionClient(bus);
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await bus.drain();
  });

  it('share the load: both runners serve calls, and each call is recorded once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => client.call(name('noop'), {}, { timeoutMs: 5_000 })),
    );
    expect(replies.every((r) => r.status === 'success')).toBe(true);
    const noops = await expectEventually(() => {
      const found = records.filter((r) => r.name === name('noop'));
      expect(found).toHaveLength(40);
      return found;
    });
    expect(new Set(noops.map((r) => r.id)).size).toBe(40);
    expect(new Set(noops.map((r) => r.instance)).size).toBe(2);
  });

  it('answer a call that goes wrong with the function’s error, once, without retrying', async () => {
    const reply = await client.call(name('fail'), {}, { timeoutMs: 5_000, callId: `${ns}-fail` });
    expect(reply).toMatchObject({
      status: 'error',
      error: { code: 'function_error', message: 'the disk is full' },
    });
    await expectEventually(() => expect(records.filter((r) => r.id === `${ns}-fail`)).toHaveLength(1));
  });

  it('give a clean error by the deadline when a runner dies mid-call, while the other keeps serving', async () => {
    const timeoutMs = 3_000;
    const started = Date.now();
    const calls = Array.from({ length: 12 }, () =>
      client.call(name('sleep'), { ms: 1_000 }, { timeoutMs }).then(
        (reply: FnExecReply) => ({ reply, at: Date.now() - started }),
        (error: { code: string }) => ({ error, at: Date.now() - started }),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    await runners[0].kill();
    const outcomes = await Promise.all(calls);
    const failed = outcomes.filter((o) => 'error' in o);
    expect(outcomes.filter((o) => 'reply' in o && o.reply.status === 'success').length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    // its provider's silence or the deadline, whichever comes first, ends a call the dead runner held
    for (const o of failed) expect(['timeout', 'unavailable']).toContain('error' in o && o.error.code);
    // by the deadline, give or take this test process's own timer lag on a busy machine
    expect(Math.max(...outcomes.map((o) => o.at))).toBeLessThanOrEqual(timeoutMs + 500);
    const after = await Promise.all(
      Array.from({ length: 6 }, () => client.call(name('noop'), {}, { timeoutMs: 2_000 })),
    );
    expect(after.every((r) => r.status === 'success')).toBe(true);
  });
});

describe('a function runner’s sandbox (built process, real NATS)', () => {
  const ns = uniqueNamespace('s');
  const name = (fn: string) => `${ns}_${fn}`;
  let dir: string;
  let runner: ServiceProcess;
  let bus: Bus;
  let client: FunctionClient;
  const call = (fn: string, params: Record<string, unknown> = {}, timeoutMs = 5_000) =>
    client.call(name(fn), params, { timeoutMs });

  beforeAll(async () => {
    dir = pluginFolder(testPlugins(ns));
    runner = await startService('function-runner', runnerEnv(dir, { FUNCTIONS_SANDBOX_WORKERS: '1' }));
    bus = await Bus.connect({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'sandbox-spec' });
    client = new FunctionClient(bus);
  });
  afterAll(async () => {
    await runner.stop();
    await bus.drain();
  });

  it('kills a function that loops forever at its timeout, and the runner stays healthy', async () => {
    const started = Date.now();
    const reply = await call('spin', {}, 1_000);
    expect(reply).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(1_500);
    // one sandbox process in all: this call is served only because the spinning one was killed
    expect(await call('noop', {}, 2_000)).toMatchObject({ status: 'success' });
    expect(runner.child.exitCode).toBeNull();
  });

  it('denies a custom function the runner’s secrets, /etc/passwd and its own sockets', async () => {
    const reply = await call('peek');
    expect(reply.status).toBe('success');
    const seen = (reply as Extract<FnExecReply, { status: 'success' }>).result.data as Record<
      string,
      unknown
    >;
    expect(seen.env).toEqual({});
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(seen.passwd).toBe('ERR_ACCESS_DENIED');
    expect(runner.output()).toMatch(/sandbox: each sandbox has an empty network namespace/);
    expect(seen.network).toBe('ENETUNREACH');
  });

  it('lets a custom function reach the network only through http_request, which refuses internal addresses', async () => {
    expect(await call('fetch', { url: 'http://127.0.0.1:4222/' })).toMatchObject({
      status: 'error',
      error: {
        code: 'function_error',
        message: expect.stringMatching(/http_request blocked: 127\.0\.0\.1 is a loopback address/),
      },
    });
    expect(await call('fetch', { url: 'http://localhost:4222/' })).toMatchObject({
      error: { message: expect.stringMatching(/'localhost' resolves to .*a loopback address/) },
    });
  });

  it('serves a function added to the folder, updates a replaced one and drops a removed one, without a restart', async () => {
    const file = join(dir, 'hot.mjs');
    const hot = (text: string) =>
      `export default { name: '${name('hot')}', description: 'hot', parameters: { type: 'object', properties: {} }, async execute() { return '${text}'; } };`;
    const catalogue = async () =>
      (await bus.gather(Routes.fnCatalog)).flatMap((c) => c.functions.map((f) => f.name));
    writeFileSync(file, hot('first'));
    await expectEventually(async () => expect(await catalogue()).toContain(name('hot')));
    expect(await call('hot')).toMatchObject({ status: 'success', result: { message: 'first' } });
    writeFileSync(file, hot('second version'));
    await expectEventually(async () =>
      expect(await call('hot')).toMatchObject({ result: { message: 'second version' } }),
    );
    rmSync(file);
    await expectEventually(async () =>
      expect(await call('hot').catch((e: { code: string }) => e.code)).toBe('unavailable'),
    );
    expect(await catalogue()).not.toContain(name('hot'));
    expect(runner.output()).toMatch(/custom functions reloaded/);
  });
});
