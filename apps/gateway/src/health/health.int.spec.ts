import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import type { ServiceName } from '@app/contracts';
import { HealthChecks, PingResponder } from '@app/runtime';
import { type NatsServer, startNatsServer } from '@app/testing';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

describe('/health (real NATS, each service answering its ping)', () => {
  let nats: NatsServer;
  let bus: Bus;
  let llm = { state: 'ok', reason: undefined as string | undefined };

  beforeAll(async () => {
    nats = await startNatsServer();
    bus = await Bus.connect({ url: nats.url, name: 'health-spec' });
    for (const name of ['agent-executor', 'function-runner', 'scheduler'] as ServiceName[]) {
      const checks = new HealthChecks();
      if (name === 'agent-executor') checks.describe('llm', () => llm);
      const info = { name, instance: 'test', version: 'test', startedAt: Date.now() };
      new PingResponder(bus, checks, info).onApplicationBootstrap();
    }
    await bus.flush();
  });
  afterAll(async () => {
    await bus?.drain();
    await nats?.stop();
  });

  async function health() {
    const own = new HealthChecks();
    own.register('database', async () => undefined);
    own.register('redis', async () => undefined);
    let status = 200;
    const res = { status: (code: number) => (status = code) };
    const body = await new HealthController(new HealthService(bus, own)).get(res as never);
    return { status, body };
  }

  it('reports the model configuration the executor announces in its ping', async () => {
    llm = { state: 'ok', reason: undefined };
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', llm: 'ok' } });
  });

  it('answers 503 when no model is configured, because chat cannot be served', async () => {
    llm = { state: 'not configured', reason: 'LLM_API_KEY is required for openai at api.openai.com' };
    expect(await health()).toMatchObject({
      status: 503,
      body: {
        status: 'degraded',
        llm: 'not configured',
        error: {
          code: 'unavailable',
          message: 'down: llm (not configured: LLM_API_KEY is required for openai at api.openai.com)',
        },
      },
    });
  });
});
