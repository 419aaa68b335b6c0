import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { loadConfig } from '@app/config';
import { Routes } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { RedisModule, RuntimeModule } from '@app/runtime';
import { expectEventually } from '@app/testing';
import { UsageLimits } from '@app/limits';
import { configureHttp } from '../common/http-app';
import { ErrorShapes } from '../common/error-shapes';
import { HttpErrorFilter } from '../common/http-error.filter';
import { FunctionsModule } from './functions.module';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `g${Date.now().toString(36)}${process.pid}`;
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class TextParams {
  @Param({ description: 'some text', required: true }) text!: string;
  @Param({ description: 'a count', type: 'integer', min: 1 }) count?: number;
}

let counted = 0;

const functions: AgentFunction[] = [
  {
    name: `${ns}_count`,
    description: 'counts its calls',
    params: TextParams,
    execute: async () => ({ message: `call ${++counted}` }),
  },
  {
    name: `${ns}_echo`,
    description: 'echoes',
    params: TextParams,
    execute: async (p) => ({ message: (p as TextParams).text }),
  },
  {
    name: `${ns}_fail`,
    description: 'fails',
    params: TextParams,
    execute: async () => {
      throw new Error('upstream said no');
    },
  },
  {
    name: `${ns}_slow`,
    description: 'never answers in time',
    params: TextParams,
    timeoutMs: 60_000,
    execute: (_p, ctx) =>
      new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
  },
];

/** The JSON bodies of the functions API, loosely. */
interface ApiBody {
  status?: string;
  functions?: { name: string }[];
  error?: { code: string; message: string; details?: { field: string }[] };
  [key: string]: unknown;
}

describe('Functions API (in-process gateway, real NATS and HTTP)', () => {
  const buses: Bus[] = [];
  const hosts: FunctionHost[] = [];
  let app: NestExpressApplication;
  let base = '';

  const http = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/api/v1/functions${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as ApiBody };
  };

  beforeAll(async () => {
    for (const instance of ['a', 'b']) {
      const bus = await Bus.connect({ url, name: `api-spec-host-${instance}` });
      const registry = new FunctionRegistry(5_000);
      registry.setGroup('builtin', functions);
      const host = new FunctionHost({
        bus,
        registry,
        logger: quiet,
        provider: `api-spec-${ns}`,
        instance,
        concurrency: 8,
      });
      await host.start();
      buses.push(bus);
      hosts.push(host);
    }
    // the executor's part of an invocation (apps/agent-executor function-invoke.handler), by the same library call
    const relay = await Bus.connect({ url, name: 'api-spec-relay' });
    const client = new FunctionClient(relay);
    relay.serve(Routes.fnInvoke, (r) =>
      client.call(r.name, r.params, {
        timeoutMs: r.timeout_ms,
        caller: { kind: 'api', principal: r.principal },
        idempotencyKey: r.idempotency_key,
      }),
    );
    buses.push(relay);
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1' });
    const bus = await Bus.connect({ url, name: 'api-spec-gateway' });
    const runtime = RuntimeModule.forRoot({
      info: { name: 'gateway', instance: ns, version: '0', startedAt: Date.now() },
      config,
      logger: quiet,
      bus,
    });
    // What the gateway's global auth module gives the functions API: the keys' run limits.
    @Global()
    @Module({ providers: [UsageLimits], exports: [UsageLimits] })
    class TestLimits {}
    @Module({})
    class TestGateway {
      static root(): DynamicModule {
        return {
          module: TestGateway,
          imports: [runtime, RedisModule.forRoot(config.redis.url), TestLimits, FunctionsModule],
          providers: [ErrorShapes, { provide: APP_FILTER, useClass: HttpErrorFilter }],
        };
      }
    }
    app = await NestFactory.create<NestExpressApplication>(TestGateway.root(), {
      logger: quiet,
      bodyParser: false,
    });
    [base] = await configureHttp(app, config);
  });
  afterAll(async () => {
    await app.close();
    for (const host of hosts) await host.stop(100);
    for (const bus of buses) await bus.drain();
  });

  it('lists every definition once, though two replicas serve them', async () => {
    // the catalogue is cached for seconds: a reply missed on a loaded machine shows up at the next gathering
    await expectEventually(async () => {
      const { status, body } = await http('GET', '');
      expect(status).toBe(200);
      const mine = body.functions!.filter((f) => f.name.startsWith(ns));
      expect(mine.map((f) => f.name)).toEqual([`${ns}_count`, `${ns}_echo`, `${ns}_fail`, `${ns}_slow`]);
    });
  });

  it('shows one definition, and 404 for an unknown name', async () => {
    const { status, body } = await http('GET', `/${ns}_echo`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: `${ns}_echo`,
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
        required: ['text'],
      },
      timeout_ms: 5_000,
      idempotent: false,
    });
    expect(await http('GET', `/${ns}_nope`)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  });

  it('invokes a function and returns its result with the elapsed time', async () => {
    const { status, body } = await http('POST', `/${ns}_echo/invoke`, { params: { text: 'hello' } });
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'success', result: { message: 'hello' }, elapsed_ms: expect.any(Number) });
  });

  it('runs a call sent again with the same Idempotency-Key once, and refuses a malformed key', async () => {
    const key = { 'idempotency-key': `${ns}-retry-1` };
    const first = await http('POST', `/${ns}_count/invoke`, { params: { text: 'x' } }, key);
    const again = await http('POST', `/${ns}_count/invoke`, { params: { text: 'x' } }, key);
    expect(first.body).toMatchObject({ status: 'success', result: { message: 'call 1' } });
    expect(again.body.result).toEqual(first.body.result);
    const other = await http('POST', `/${ns}_count/invoke`, { params: { text: 'y' } }, key);
    expect(other).toMatchObject({ status: 409, body: { error: { code: 'idempotency_conflict' } } });
    const bad = await http(
      'POST',
      `/${ns}_count/invoke`,
      { params: { text: 'x' } },
      { 'idempotency-key': 'a b' },
    );
    expect(bad).toMatchObject({ status: 400, body: { error: { message: /Idempotency-Key/ } } });
    expect(counted).toBe(1);
  });

  it('returns a failed function as status "error", not as an HTTP failure', async () => {
    const { status, body } = await http('POST', `/${ns}_fail/invoke`, { params: { text: 'x' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'error',
      error: { code: 'function_error', message: 'upstream said no' },
    });
  });

  it('answers 400 listing every invalid parameter', async () => {
    const { status, body } = await http('POST', `/${ns}_echo/invoke`, { params: { count: 0, extra: true } });
    expect(status).toBe(400);
    expect(body.error!.code).toBe('invalid_params');
    expect(body.error!.details!.map((f) => f.field).sort()).toEqual(['count', 'extra', 'text']);
  });

  it('answers 400 for a malformed invocation body, naming its fields', async () => {
    const { status, body } = await http('POST', `/${ns}_echo/invoke`, { params: [1], timeout_ms: 'soon' });
    expect(status).toBe(400);
    expect(new Set(body.error!.details!.map((f) => f.field))).toEqual(new Set(['params', 'timeout_ms']));
  });

  it('answers 404 when invoking an unknown function', async () => {
    expect(await http('POST', `/${ns}_nope/invoke`, { params: {} })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  });

  it('answers 200 with the timeout as the outcome when the function does not finish in time', async () => {
    const started = Date.now();
    const { status, body } = await http('POST', `/${ns}_slow/invoke`, {
      params: { text: 'x' },
      timeout_ms: 300,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'error',
      error: { code: 'timeout', message: `function '${ns}_slow' did not finish within 300 ms` },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 503 naming the provider, not 404, once the providers of a known function have stopped', async () => {
    for (const host of hosts.splice(0)) await host.stop(100);
    await expectEventually(async () =>
      expect(await http('POST', `/${ns}_echo/invoke`, { params: { text: 'x' } })).toMatchObject({
        status: 503,
        body: { error: { code: 'unavailable', details: { part: `api-spec-${ns}`, function: `${ns}_echo` } } },
      }),
    );
    expect(await http('GET', `/${ns}_echo`)).toMatchObject({ status: 503 });
  });
});
