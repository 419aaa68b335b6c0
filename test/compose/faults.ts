import { expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import {
  api,
  call,
  compose,
  containersOf,
  docker,
  inspect,
  logsOf,
  published,
  script,
  SERVICES,
  type Stack,
  untilHealthy,
  violations,
} from './stack';

/** A turn that must succeed (the model answers `ok`), retried while the stack recovers. */
async function turnSucceeds(stack: Stack, timeoutMs: number): Promise<void> {
  await script(stack.llm, { rules: [{ match: 'compose-alive', reply: 'alive' }] });
  await expectEventually(
    async () => {
      const turn = await api(stack.base, 'POST', '/api/v1/chat', { message: 'compose-alive' });
      expect(turn, JSON.stringify(turn.body)).toMatchObject({ status: 200, body: { reply: 'alive' } });
    },
    { timeoutMs, intervalMs: 1_000 },
  );
}

/** The executor's process killed with -9 while its run waits on the model: back, and the run answered. */
async function killExecutorMidRun(stack: Stack): Promise<void> {
  await script(stack.llm, {
    rules: [
      { match: '/<result name="whoami"/', reply: 'survived' },
      { match: 'compose-crash', reply: { text: `Working.${call('whoami')}`, latencyMs: 4_000 } },
    ],
  });
  const turn = api(stack.base, 'POST', '/api/v1/chat', { message: 'compose-crash' });
  const running = await expectEventually(
    async () => {
      const page = await api(stack.base, 'GET', '/api/v1/runs?status=running');
      const items = page.body.items as { id: string }[];
      expect(items).toHaveLength(1);
      return items[0].id;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  const [executor] = await containersOf('agent-executor');
  const before = await inspect(executor);
  process.kill(before.pid, 'SIGKILL');
  await expectEventually(
    async () => {
      const after = await inspect(executor);
      expect(after.restarts).toBeGreaterThan(before.restarts);
      expect(after.health).toBe('healthy');
    },
    { timeoutMs: 90_000, intervalMs: 1_000 },
  );
  const answered = await turn;
  if (answered.status === 200) expect(answered.body.reply).toBe('survived');
  await expectEventually(
    async () => {
      const run = await api(stack.base, 'GET', `/api/v1/runs/${running}`);
      expect(run.body).toMatchObject({ status: 'completed', reply: 'survived' });
    },
    { timeoutMs: 60_000, intervalMs: 1_000 },
  );
}

/** `down` then `up`: what the volumes keep. */
async function downAndUp(stack: Stack): Promise<void> {
  const key = await api(stack.base, 'POST', '/api/v1/keys', {
    name: 'compose-key',
    scopes: ['chat', 'tasks:read'],
  });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  const later = await api(stack.base, 'POST', '/api/v1/delays', {
    name: 'compose-kept',
    run_at: new Date(Date.now() + 86_400_000).toISOString(),
    function: 'whoami',
  });
  expect(later.status).toBe(201);
  stack.natsLogs.push(await logsOf('nats'));
  await compose(['down'], 300_000);
  await compose(['up', '-d'], 600_000);
  await untilHealthy(['nats', 'redis', 'postgres', ...SERVICES], 1, 180_000);
  stack.llm = await published('llm', 4010);
  for (const session of stack.sessions)
    expect((await api(stack.base, 'GET', `/api/v1/sessions/${session}`)).status, session).toBe(200);
  expect((await api(stack.base, 'GET', '/api/v1/delays/compose-kept')).body.status).toBe('pending');
  expect((await api(stack.base, 'GET', '/api/v1/crons/compose-cron')).status).toBe(200);
  const me = await api(stack.base, 'GET', '/api/v1/me', undefined, key.body.key as string);
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  await turnSucceeds(stack, 60_000);
}

/** --scale function-runner=3 and the faults: NATS restarted, the executor killed, the stack down and up. */
export function scaleAndFaultChecks(stack: Stack): void {
  it('spreads calls over three function-runner containers (--scale function-runner=3)', async () => {
    await compose(['up', '-d', '--no-recreate', '--scale', 'function-runner=3'], 300_000);
    await untilHealthy(['function-runner'], 3);
    const runners = (await containersOf('function-runner')).map((id) => id.slice(0, 12));
    const replies = await Promise.all(
      Array.from({ length: 30 }, () =>
        api(stack.base, 'POST', '/api/v1/functions/whoami/invoke', { params: {} }),
      ),
    );
    const hosts = replies.map((r) => (r.body.result as { data: { host: string } }).data.host);
    expect(new Set(hosts)).toEqual(new Set(runners));
    // each runner's own log and metrics show calls it ran
    for (const id of runners) {
      expect(await docker(['logs', id]), id).toMatch(/"fn":"whoami".*"msg":"function call"/);
      const { ip } = await inspect(id);
      const metrics = await (await fetch(`http://${ip}:9464/metrics`)).text();
      expect(metrics, id).toMatch(/^ac_function_calls_total\{[^}]*function="whoami"[^}]*\} [1-9]/m);
    }
  });

  it('survives docker-compose restart nats: every service reconnects and serves', async () => {
    await compose(['restart', 'nats'], 120_000);
    await untilHealthy(['nats', 'gateway', 'agent-executor', 'scheduler']);
    await untilHealthy(['function-runner'], 3);
    await turnSucceeds(stack, 60_000);
    await expectEventually(async () => expect((await api(stack.base, 'GET', '/health')).status).toBe(200), {
      timeoutMs: 60_000,
      intervalMs: 1_000,
    });
  });

  it('brings an executor killed with kill -9 back (restart policy), and its run is answered', () =>
    killExecutorMidRun(stack));

  it('keeps sessions, tasks and API keys across docker-compose down and up (volumes)', () =>
    downAndUp(stack));

  it('never had NATS refuse a service anything during the whole test', async () => {
    const logs = [...stack.natsLogs, await logsOf('nats')].join('\n');
    expect(logs).toMatch(/Server is ready/);
    expect(violations(logs)).toEqual([]);
  });
}
