import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Migrator } from '@app/persistence';
import {
  expectEventually,
  freshPostgresDatabase,
  gatewayUrl,
  type NatsServer,
  REPO_ROOT,
  type ReceivedSpan,
  type ScriptedLlm,
  type ServiceProcess,
  startNatsServer,
  startOtlpReceiver,
  startScriptedLlm,
  startService,
} from '@app/testing';

const LLM_KEY = 'sk-llm-secret-4f9a2c7e1b';
const DB_PASSWORD = 'db-Pa55word-7d3e';
const ADMIN_KEY = 'ac_observability_admin_key_51b8e2d04c';
const SEND = '<call name="send_message"><p>to: ops</p><p>message: disk is fine</p></call>';

describe('one chat turn, observed (gateway, executor and runner processes; OTLP, Prometheus, logs)', () => {
  let nats: NatsServer;
  let llm: ScriptedLlm;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let services: ServiceProcess[] = [];
  let base: string;

  const chat = (message: string) =>
    fetch(`${base}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({ message }),
    });
  const metrics = async (service: ServiceProcess) => {
    const port = /probes http:\/\/[^:]+:(\d+)/.exec(service.output())?.[1];
    return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  };

  beforeAll(async () => {
    [nats, llm, receiver, database] = await Promise.all([
      startNatsServer(),
      startScriptedLlm(),
      startOtlpReceiver(),
      freshPostgresDatabase(),
    ]);
    const url = new URL(database.url);
    url.password = DB_PASSWORD; // the test server trusts local connections: any password works
    const migrator = await Migrator.open(url.toString(), REPO_ROOT);
    await migrator.deploy();
    await migrator.close();
    const config = join(mkdtempSync(join(tmpdir(), 'ac-obs-')), 'agentchassis.yaml');
    writeFileSync(
      config,
      stringify({ agents: [{ name: 'default', allowed_tools: ['send_message', 'delay_create'] }] }),
    );
    const env = {
      AC_CONFIG: config,
      NATS_URL: nats.url,
      DATABASE_URL: url.toString(),
      PORT: '0',
      METRICS_PORT: '0',
      AC_ADMIN_KEY: ADMIN_KEY,
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: LLM_KEY,
      LLM_MODEL: 'scripted-model',
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      TRACE_URL_TEMPLATE: 'http://traces.example/trace/{trace_id}',
    };
    services = await Promise.all([
      startService('gateway', env),
      startService('agent-executor', env),
      startService('function-runner', {
        NATS_URL: nats.url,
        METRICS_PORT: '0',
        LOG_LEVEL: 'debug',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      }),
      startService('scheduler', { ...env, SCHEDULER_QUEUE_PREFIX: `obs-${Date.now()}` }),
    ]);
    base = gatewayUrl(services[0]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all([nats?.stop(), llm?.close(), receiver?.close()]);
    await database?.drop();
  });

  it('is one trace from the gateway through the executor and the LLM call to the runner', async () => {
    llm.setScript({ replies: [SEND, 'Sent the message.'] });
    const res = await chat('tell ops the disk is fine');
    expect(res.status).toBe(200);
    const traceId = /^00-([0-9a-f]{32})-/.exec(res.headers.get('traceparent') ?? '')?.[1];
    expect(traceId).toBeDefined();
    const spans = await expectEventually(() => {
      const mine = receiver.spans().filter((s) => s.traceId === traceId);
      expect(new Set(mine.map((s) => s.service))).toEqual(
        new Set(['gateway', 'agent-executor', 'function-runner']),
      );
      expect(mine.some((s) => s.kind === 2 && s.service === 'gateway')).toBe(true);
      return mine;
    });
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const find = (service: string, name: RegExp) => {
      const span = spans.find((s) => s.service === service && name.test(s.name));
      expect(span, `${service} ${name}`).toBeDefined();
      return span!;
    };
    const http = find('gateway', /^POST \/api\/v1\/chat$/);
    expect(http.parentSpanId).toBeUndefined();
    const run = find('agent-executor', /^process agent\.run$/);
    expect(parentOf(run)).toMatchObject({ service: 'gateway', name: 'send agent.run' });
    expect(parentOf(parentOf(run)!)).toBe(http);
    const llmCalls = spans.filter((s) => s.service === 'agent-executor' && s.name === 'chat scripted-model');
    expect(llmCalls).toHaveLength(2);
    expect(llmCalls[0].attributes).toMatchObject({
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.usage.input_tokens': expect.any(Number),
    });
    const executed = find('function-runner', /^process fn\.exec\.send_message$/);
    expect(parentOf(executed)).toMatchObject({
      service: 'agent-executor',
      name: 'send fn.exec.send_message',
    });
    // the run's record names its trace, and links it to the operator's tracing UI
    const { run_id } = (await res.json()) as { run_id: string };
    const view = (await (
      await fetch(`${base}/api/v1/runs/${run_id}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })
    ).json()) as {
      trace_id: string;
      trace_url: string;
    };
    expect(view).toMatchObject({ trace_id: traceId, trace_url: `http://traces.example/trace/${traceId}` });
  });

  it("links a scheduled task's fire to the trace of the turn that created it", async () => {
    const runAt = new Date(Date.now() + 1_000).toISOString();
    llm.setScript({
      replies: [
        `<call name="delay_create"><p>name: traced-reminder</p><p>run_at: ${runAt}</p><p>function: send_message</p>` +
          '<p>params: {"to":"ops","message":"traced"}</p></call>',
        'Scheduled.',
      ],
    });
    const res = await chat('remind ops in a second');
    const traceId = /^00-([0-9a-f]{32})-/.exec(res.headers.get('traceparent') ?? '')?.[1];
    const fire = await expectEventually(
      () => {
        const span = receiver
          .spans()
          .find((s) => s.service === 'scheduler' && s.name === 'fire traced-reminder');
        expect(span).toBeDefined();
        return span!;
      },
      { timeoutMs: 15_000 },
    );
    expect(fire.traceId).not.toBe(traceId);
    expect(fire.links.map((l) => l.traceId)).toContain(traceId);
    await expectEventually(() =>
      expect(
        receiver.spans().some((s) => s.traceId === fire.traceId && s.name === 'process fn.exec.send_message'),
      ).toBe(true),
    );
  });

  it('moves the counters by exactly the expected amounts', async () => {
    const [executorBefore, runnerBefore] = await Promise.all([metrics(services[1]), metrics(services[2])]);
    llm.setScript({ replies: [SEND, 'Sent again.'] });
    expect((await chat('once more')).status).toBe(200);
    llm.setScript({ replies: ['Nothing to do.'] });
    expect((await chat('anything?')).status).toBe(200);
    const [executorAfter, runnerAfter] = await Promise.all([metrics(services[1]), metrics(services[2])]);
    const delta = (before: string, after: string, series: RegExp) =>
      value(after, series) - value(before, series);
    expect(
      delta(executorBefore, executorAfter, /^ac_runs_total\{agent="default",finish_reason="final"/m),
    ).toBe(2);
    expect(
      delta(
        executorBefore,
        executorAfter,
        /^ac_llm_requests_total\{provider="[^"]+",model="scripted-model",status="ok"/m,
      ),
    ).toBe(3);
    expect(
      delta(runnerBefore, runnerAfter, /^ac_function_calls_total\{function="send_message",status="success"/m),
    ).toBe(1);
  });

  it('leaves the LLM key, the database password and the bearer token out of every log line', async () => {
    await fetch(`${base}/api/v1/functions/nope`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    const logs = services.map((s) => s.output()).join('\n');
    expect(logs).toMatch(/llm call/);
    for (const secret of [LLM_KEY, DB_PASSWORD, ADMIN_KEY]) expect(logs).not.toContain(secret);
  });
});

function value(exposition: string, series: RegExp): number {
  const line = exposition.split('\n').find((l) => series.test(l));
  return line ? Number(line.split(' ').pop()) : 0;
}
