import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '@app/contracts';
import {
  expectEventually,
  gatewayUrl,
  migratedSqliteUrl,
  REPO_ROOT,
  type ServiceProcess,
  startService,
} from '@app/testing';

describe('the platform (four processes, real NATS, Redis and SQLite)', () => {
  const services: ServiceProcess[] = [];
  let base: string;

  beforeAll(async () => {
    // The committed example configuration, so a broken example fails here.
    const env = {
      AC_CONFIG: join(REPO_ROOT, 'config/agentchassis.example.yaml'),
      DATABASE_URL: await migratedSqliteUrl(),
      PORT: '0',
      FUNCTIONS_DIR: join(REPO_ROOT, 'examples/functions'),
      // The example's model is OpenAI's: configured once it has a key (no model call is made here).
      LLM_API_KEY: 'sk-platform-test-key',
    };
    services.push(...(await Promise.all(SERVICE_NAMES.map((name) => startService(name, env)))));
    base = gatewayUrl(services[0]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
  });

  it('reports every service, NATS, the database and Redis as up', async () => {
    const body = await expectEventually(async () => {
      const res = await fetch(`${base}/health`);
      expect(res.status).toBe(200);
      return res.json();
    });
    expect(body).toMatchObject({
      status: 'ok',
      services: { gateway: 'ok', 'agent-executor': 'ok', 'function-runner': 'ok', scheduler: 'ok' },
      nats: 'ok',
      database: 'ok',
      redis: 'ok',
      llm: 'ok',
    });
  });

  it('answers a bad request with a JSON error, never a 500', async () => {
    const res = await fetch(`${base}/api/v1/nothing-here`, {
      method: 'POST',
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'bad_request', message: 'request body is not valid JSON' },
    });
  });

  it('serves its OpenAPI document at /api/docs, without a key', async () => {
    const res = await fetch(`${base}/api/docs`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/chat', '/api/v1/functions', '/api/v1/keys', '/health']),
    );
  });

  it('turns /health into 503 naming a stopped service within 10 s', async () => {
    const runner = services.find((s) => s.name === 'function-runner')!;
    await runner.stop();
    expect(runner.output()).toMatch(/\] stopped/);
    await expectEventually(
      async () => {
        const res = await fetch(`${base}/health`);
        expect(res.status).toBe(503);
        const body = (await res.json()) as { services: Record<string, string>; error: { message: string } };
        expect(body.services['function-runner']).toBe('down');
        expect(body.error.message).toMatch(/function-runner/);
      },
      { timeoutMs: 10_000 },
    );
  });
});

describe('a service with a bad configuration', () => {
  it('exits non-zero with a message naming the key', () => {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/apps/gateway/src/main.js')], {
      env: { PATH: process.env.PATH ?? '', NATS_URL: 'notaurl' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/NATS_URL/);
  });
});
