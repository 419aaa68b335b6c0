import { expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { api, call, containersOf, inspect, script, SERVICES, type Stack } from './stack';

/** The stack is up: every service healthy, connected as its NATS user, with its metrics. */
export function upChecks(stack: Stack): void {
  it('reports every service healthy, and /health 200 with the scripted model', async () => {
    const ps = await stack.ps();
    for (const service of [...SERVICES, 'nats', 'redis', 'postgres'])
      expect(ps, service).toMatch(new RegExp(`_${service}_1 .* Up \\(healthy\\)`));
    expect(ps).toMatch(/_migrate_1 .* Exit 0/);
    const health = await api(stack.base, 'GET', '/health');
    expect(health).toMatchObject({
      status: 200,
      body: {
        status: 'ok',
        services: { gateway: 'ok', 'agent-executor': 'ok', 'function-runner': 'ok', scheduler: 'ok' },
        llm: 'ok',
      },
    });
  });

  it('connects every service to NATS as its own user, and no one without one', async () => {
    const nats = await inspect((await containersOf('nats'))[0]);
    const connz = (await (await fetch(`http://${nats.ip}:8222/connz?auth=true`)).json()) as {
      connections: { name: string; authorized_user?: string }[];
    };
    const users = connz.connections.map((c) => [c.name, c.authorized_user]);
    expect(users.map(([, user]) => user).sort()).toEqual([...SERVICES].sort());
    for (const [name, user] of users) expect(name).toBe(user);
  });

  it('serves /metrics from each service: the gateway on its port, the others on 9464', async () => {
    for (const service of SERVICES) {
      const { ip } = await inspect((await containersOf(service))[0]);
      const res = await fetch(service === 'gateway' ? `${stack.base}/metrics` : `http://${ip}:9464/metrics`);
      expect(res.status, service).toBe(200);
      const text = await res.text();
      expect(text, service).toMatch(
        new RegExp(`^process_resident_memory_bytes\\{service="${service}"\\} \\d`, 'm'),
      );
      expect(text, service).toMatch(new RegExp(`^ac_\\w+\\{.*service="${service}"`, 'm'));
    }
  });
}

/** The stack serves: a turn with a call, a stream, a delay, a cron the AI makes. */
export function servingChecks(stack: Stack): void {
  it('answers a chat turn that calls a function, through the published gateway port', async () => {
    await script(stack.llm, {
      rules: [
        { match: '/<result name="whoami"/', reply: 'done: {{last}}' },
        { match: 'compose-turn', reply: `Let me look.${call('whoami')}` },
      ],
    });
    const turn = await api(stack.base, 'POST', '/api/v1/chat', { message: 'compose-turn' });
    expect(turn.status, JSON.stringify(turn.body)).toBe(200);
    expect(turn.body).toMatchObject({
      finish_reason: 'final',
      function_calls: [expect.objectContaining({ name: 'whoami', status: 'success' })],
    });
    stack.sessions.push(turn.body.session_id as string);
  });

  it('streams a turn', async () => {
    await script(stack.llm, { rules: [{ match: 'compose-stream', reply: 'streamed words' }] });
    const res = await fetch(`${stack.base}/api/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'compose-stream', stream: true }),
      signal: AbortSignal.timeout(60_000),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/event: run_end/);
    expect(text).toMatch(/streamed words/);
  });

  it('fires a delay at its time', async () => {
    const created = await api(stack.base, 'POST', '/api/v1/delays', {
      name: 'compose-delay',
      run_at: new Date(Date.now() + 2_000).toISOString(),
      function: 'whoami',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await expectEventually(
      async () =>
        expect((await api(stack.base, 'GET', '/api/v1/delays/compose-delay')).body.status).toBe('completed'),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  });

  it('runs a cron the AI created', async () => {
    await script(stack.llm, {
      rules: [
        { match: '/<result name="cron_create"/', reply: 'scheduled' },
        {
          match: 'compose-cron',
          reply: call('cron_create', {
            name: 'compose-cron',
            cron_expr: '*/3 * * * * *',
            function: 'whoami',
            max_runs: 2,
          }),
        },
      ],
    });
    const turn = await api(stack.base, 'POST', '/api/v1/chat', { message: 'compose-cron' });
    expect(turn.body.function_calls).toEqual([
      expect.objectContaining({ name: 'cron_create', status: 'success' }),
    ]);
    await expectEventually(
      async () =>
        expect(
          (await api(stack.base, 'GET', '/api/v1/crons/compose-cron')).body.run_count,
        ).toBeGreaterThanOrEqual(1),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  });
}
