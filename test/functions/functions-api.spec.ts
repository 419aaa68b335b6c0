import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEventually,
  gatewayUrl,
  migratedSqliteUrl,
  type ServiceProcess,
  startService,
} from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from './plugins';

const ADMIN_KEY = 'ac_functions_api_spec_admin_key';

/** The JSON bodies of the functions API, loosely. */
interface ApiBody {
  status?: string;
  functions?: { name: string }[];
  error?: { code: string; message: string; details?: { field: string }[] };
  [key: string]: unknown;
}

describe('the functions API (gateway, executor and runner processes, real NATS)', () => {
  const ns = uniqueNamespace('a');
  const name = (fn: string) => `${ns}_${fn}`;
  const services: ServiceProcess[] = [];
  let base = '';

  const http = async (method: string, path: string, body?: unknown, key = ADMIN_KEY) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}/api/v1/functions${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as ApiBody };
  };

  beforeAll(async () => {
    const env = {
      DATABASE_URL: await migratedSqliteUrl(),
      PORT: '0',
      AC_ADMIN_KEY: ADMIN_KEY,
      FUNCTIONS_DIR: pluginFolder(testPlugins(ns)),
    };
    services.push(
      ...(await Promise.all([
        startService('gateway', env),
        startService('agent-executor', env),
        startService('function-runner', env),
      ])),
    );
    base = gatewayUrl(services[0]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
  });

  it('lists the built-ins and the custom functions with their parameter schemas', async () => {
    const byName = await expectEventually(async () => {
      const { status, body } = await http('GET', '');
      expect(status).toBe(200);
      const found = new Map(body.functions!.map((f) => [f.name, f]));
      expect(found.has(name('sleep'))).toBe(true);
      return found;
    });
    expect(byName.get('send_message')).toMatchObject({
      provider: 'builtin',
      parameters: {
        properties: {
          to: { type: 'string' },
          message: { type: 'string' },
          channel: { type: 'string', default: 'console' },
        },
        required: ['to', 'message'],
      },
    });
    expect(byName.get('http_request')).toMatchObject({ parameters: { required: ['url'] } });
    expect(byName.get(name('sleep'))).toMatchObject({
      provider: 'custom',
      parameters: { properties: { ms: { type: 'integer' } } },
    });
  });

  it('shows one function, and 404 for an unknown one', async () => {
    expect(await http('GET', `/${name('noop')}`)).toMatchObject({
      status: 200,
      body: { name: name('noop'), description: 'noop (test)' },
    });
    expect(await http('GET', `/${name('missing')}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  });

  it('invokes a built-in and a custom function', async () => {
    expect(
      await http('POST', '/send_message/invoke', { params: { to: 'ops', message: 'hello from the API' } }),
    ).toMatchObject({
      status: 200,
      body: {
        status: 'success',
        result: { message: 'message sent to ops via console' },
        elapsed_ms: expect.any(Number),
      },
    });
    expect(await http('POST', `/${name('sleep')}/invoke`, { params: { ms: 10 } })).toMatchObject({
      status: 200,
      body: { status: 'success', result: { message: 'slept' } },
    });
  });

  it('returns a failed function as status "error" and a clear error for an unconfigured channel', async () => {
    expect(await http('POST', `/${name('fail')}/invoke`, { params: {} })).toMatchObject({
      status: 200,
      body: { status: 'error', error: { code: 'function_error', message: 'the disk is full' } },
    });
    expect(
      await http('POST', '/send_message/invoke', { params: { to: 'a@b.c', message: 'x', channel: 'email' } }),
    ).toMatchObject({
      body: {
        status: 'error',
        error: { message: expect.stringMatching(/channel 'email' is not configured/) },
      },
    });
  });

  it('answers 400 listing every invalid parameter, 404 for an unknown function, and a timeout as the outcome', async () => {
    const invalid = await http('POST', '/send_message/invoke', { params: { channel: 'pigeon', extra: 1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error!.details!.map((f) => f.field).sort()).toEqual([
      'channel',
      'extra',
      'message',
      'to',
    ]);
    expect(await http('POST', `/${name('missing')}/invoke`, { params: {} })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    const started = Date.now();
    expect(
      await http('POST', `/${name('sleep')}/invoke`, { params: { ms: 5_000 }, timeout_ms: 500 }),
    ).toMatchObject({
      status: 200,
      body: {
        status: 'error',
        error: { code: 'timeout', message: `function '${name('sleep')}' did not finish within 500 ms` },
      },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 503 naming the runner, not 404, for a known function while no runner is up', async () => {
    await services.splice(2, 1)[0].stop();
    await expectEventually(async () =>
      expect(
        await http('POST', '/send_message/invoke', { params: { to: 'ops', message: 'hi' } }),
      ).toMatchObject({
        status: 503,
        body: {
          error: {
            code: 'unavailable',
            message:
              "function 'send_message' is unavailable: its provider (function-runner) does not answer right now",
          },
        },
      }),
    );
  });
});
