// The platform as deployed: the four services as built processes, each connected to NATS as its
// own user of the shipped deploy/nats/auth.conf, against a real nats-server. Every way a service
// uses the bus is driven from the gateway's API (a turn that calls a function, an agent and the
// scheduler, a streamed turn, a fired delay, a cancelled run, every read), and the broker's log
// must show no permission violation: a grant missing from auth.conf fails here, not in production.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentRunReply, type RunPage, SERVICE_NAMES, type ServiceName } from '@app/contracts';
import {
  expectEventually,
  gatewayUrl,
  migratedSqliteUrl,
  type NatsWithUsers,
  type ScriptedLlm,
  type ServiceProcess,
  startNatsWithUsers,
  startScriptedLlm,
  startService,
} from '@app/testing';
import { pluginFolder } from '../functions/plugins';
import { post, readEvents } from '../chat/chat-stack';

/** A function slow enough to send heartbeats before its reply. */
const NAP = `export default { name: 'nap', description: 'Sleeps ms milliseconds.',
  parameters: { type: 'object', properties: { ms: { type: 'integer' } } },
  execute(p) { return new Promise((r) => setTimeout(() => r({ message: 'rested ' + p.ms }), p.ms)); } };`;

const call = (name: string, params: Record<string, string | number>) =>
  `<call name="${name}">${Object.entries(params)
    .map(([k, v]) => `<p>${k}: ${v}</p>`)
    .join('')}</call>`;

describe('the platform as NATS users (deploy/nats/auth.conf on a real nats-server)', () => {
  let nats: NatsWithUsers;
  let llm: ScriptedLlm;
  let base: string;
  const services = new Map<ServiceName, ServiceProcess>();
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };

  beforeAll(async () => {
    [nats, llm] = await Promise.all([startNatsWithUsers(), startScriptedLlm()]);
    const config = join(mkdtempSync(join(tmpdir(), 'ac-bus-users-')), 'agentchassis.yaml');
    writeFileSync(
      config,
      stringify({
        agents: [
          { name: 'helper', description: 'Answers questions.', expose_as_function: true },
          { name: 'keeper', memory: { enabled: true, scope: 'principal' } },
        ],
      }),
    );
    const env = {
      AC_CONFIG: config,
      DATABASE_URL: await migratedSqliteUrl(),
      PORT: '0',
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      LLM_MAX_RETRIES: '0',
      AUTH_ENABLED: 'false',
      FUNCTIONS_DIR: pluginFolder({ 'nap.mjs': NAP }),
      SCHEDULER_QUEUE_PREFIX: `bus-users-${randomUUID().slice(0, 8)}`,
    };
    const started = await Promise.allSettled(
      SERVICE_NAMES.map((name) => startService(name, { ...env, ...nats.envOf(name) })),
    );
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') services.set(SERVICE_NAMES[i], result.value);
    });
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    base = gatewayUrl(services.get('gateway')!);
  });
  afterAll(async () => {
    await Promise.all([...services.values()].map((s) => s.stop()));
    await llm?.close();
    await nats?.stop();
  });

  it('connects every service as its own user, and the gateway pings each', async () => {
    await expectEventually(async () => {
      const health = await api('GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body.services).toEqual({
        gateway: 'ok',
        'agent-executor': 'ok',
        'function-runner': 'ok',
        scheduler: 'ok',
      });
    });
  });

  it('runs a turn that calls a slow function, an agent, and the scheduler, which fires what it made', async () => {
    const runAt = new Date(Date.now() + 1_500).toISOString();
    llm.setScript({
      rules: [
        { match: 'help-me-please', reply: 'helped' },
        {
          match: 'grants-turn',
          reply:
            call('nap', { ms: 300 }) +
            call('agent_helper', { message: 'help-me-please' }) +
            call('delay_create', {
              name: 'grants-delay',
              run_at: runAt,
              function: 'nap',
              params: '{"ms":50}',
            }) +
            call('cron_create', { name: 'grants-cron', cron_expr: '0 3 * * *', function: 'nap' }),
        },
        { match: '/<result/', reply: 'all done' },
      ],
    });
    const res = await post(base, '/api/v1/chat', { message: 'grants-turn' });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as AgentRunReply;
    expect(reply.function_calls.map((c) => [c.name, c.status])).toEqual([
      ['nap', 'success'],
      ['agent_helper', 'success'],
      ['delay_create', 'success'],
      ['cron_create', 'success'],
    ]);
    expect(reply.reply).toBe('all done');
    await expectEventually(
      async () => expect((await api('GET', '/api/v1/delays/grants-delay')).body.status).toBe('completed'),
      { timeoutMs: 15_000 },
    );
    expect((await api('GET', '/api/v1/crons/grants-cron')).status).toBe(200);
  });

  it('streams a turn', async () => {
    llm.setScript({ rules: [{ match: 'stream-turn', reply: 'streamed' }] });
    const res = await post(base, '/api/v1/chat', { message: 'stream-turn', stream: true });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await readEvents(res);
    expect(events.at(-1)).toMatchObject({ event: 'run_end' });
  });

  it('cancels a run whose function is still running', async () => {
    llm.setScript({ rules: [{ match: 'long-turn', reply: call('nap', { ms: 20_000 }) }] });
    const turn = post(base, '/api/v1/chat', { message: 'long-turn' });
    const runId = await expectEventually(async () => {
      const page = (await api('GET', '/api/v1/runs?status=running')).body as unknown as RunPage;
      expect(page.items).toHaveLength(1);
      return page.items[0].id;
    });
    await expectEventually(() => expect(services.get('function-runner')!.output()).toMatch(/nap/));
    expect((await api('POST', `/api/v1/runs/${runId}/cancel`)).status).toBe(200);
    expect(((await (await turn).json()) as AgentRunReply).finish_reason).toBe('cancelled');
  });

  it('answers every read and change the API relays to a service', async () => {
    const turn = (await (
      await post(base, '/api/v1/chat', { message: 'remember-me', agent: 'keeper' })
    ).json()) as {
      session_id: string;
      run_id: string;
    };
    const statuses = await Promise.all([
      api('GET', '/api/v1/sessions'),
      api('GET', `/api/v1/sessions/${turn.session_id}`),
      api('GET', '/api/v1/runs'),
      api('GET', '/api/v1/agents'),
      api('GET', '/api/v1/agents/helper'),
      api('POST', '/api/v1/agents', { name: 'made-here', description: 'Made over the API.' }),
      api('GET', '/api/v1/functions'),
      api('GET', '/api/v1/functions/nap'),
      api('POST', '/api/v1/functions/nap/invoke', { params: { ms: 100 } }),
      api('GET', '/api/v1/memory/search?q=remember'),
      api('GET', '/api/v1/delays'),
      api('GET', '/api/v1/crons'),
      api('POST', '/api/v1/delays', {
        name: 'grants-later',
        run_at: new Date(Date.now() + 3_600_000).toISOString(),
        function: 'nap',
      }),
    ]).then((all) => all.map((r) => r.status));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201, 200, 200, 200, 200, 200, 200, 201]);
    // the studio's: a profile replaced (every executor told), usage, a step rebuilt, a fork, MCP servers
    const studio = await Promise.all([
      api('PUT', '/api/v1/agents/made-here', { name: 'made-here', description: 'Changed.' }),
      api('GET', '/api/v1/usage?window=week'),
      api('GET', `/api/v1/runs/${turn.run_id}/steps/1/messages`),
      api('POST', `/api/v1/runs/${turn.run_id}/fork`, { from_step: 1 }),
      api('GET', '/api/v1/mcp/servers'),
    ]).then((all) => all.map((r) => r.status));
    expect(studio).toEqual([200, 200, 200, 200, 200]);
    expect((await api('DELETE', '/api/v1/agents/made-here')).status).toBe(204);
    const changes = await Promise.all([
      api('DELETE', `/api/v1/memory?session_id=${turn.session_id}`),
      api('DELETE', '/api/v1/delays/grants-later'),
      api('DELETE', '/api/v1/crons/grants-cron'),
      api('DELETE', `/api/v1/sessions/${turn.session_id}`),
    ]).then((all) => all.map((r) => r.status));
    expect(changes).toEqual([200, 200, 200, 204]);
  });

  it('never had a request or subscription refused by the broker', () => {
    expect(nats.violations()).toEqual([]);
  });
});
