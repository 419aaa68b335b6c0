import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus, KvBucket } from '@app/bus';
import { AppError, type FnExecReply, Routes, Subjects } from '@app/contracts';
import { expectEventually, freePort, REPO_ROOT } from '@app/testing';

const PASSWORDS = {
  gateway: 'pw-gateway',
  'agent-executor': 'pw-executor',
  'function-runner': 'pw-runner',
  scheduler: 'pw-scheduler',
};

/** A nats-server of our own, with the shipped deploy/nats/auth.conf, on a free port. */
async function startAuthenticatedNats(): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-nats-'));
  copyFileSync(join(REPO_ROOT, 'deploy/nats/auth.conf'), join(dir, 'auth.conf'));
  const port = await freePort();
  const jetstream = `jetstream { store_dir: "${join(dir, 'js')}" }`;
  writeFileSync(join(dir, 'nats.conf'), `listen: 127.0.0.1:${port}\n${jetstream}\ninclude ./auth.conf\n`);
  const child: ChildProcess = spawn('nats-server', ['-c', join(dir, 'nats.conf')], {
    env: {
      PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/local/sbin`,
      NATS_GATEWAY_PASSWORD: PASSWORDS.gateway,
      NATS_EXECUTOR_PASSWORD: PASSWORDS['agent-executor'],
      NATS_RUNNER_PASSWORD: PASSWORDS['function-runner'],
      NATS_SCHEDULER_PASSWORD: PASSWORDS.scheduler,
    },
    stdio: 'ignore',
  });
  const url = `nats://127.0.0.1:${port}`;
  await expectEventually(async () =>
    (await Bus.connect({ url, name: 'probe', user: 'gateway', password: PASSWORDS.gateway })).drain(),
  );
  return { url, stop: () => child.kill('SIGKILL') };
}

describe('the bus permissions (deploy/nats/auth.conf on a real nats-server)', () => {
  let nats: { url: string; stop: () => void };
  const buses: Bus[] = [];
  const as = async (user: keyof typeof PASSWORDS) => {
    const bus = await Bus.connect({ url: nats.url, name: `test-${user}`, user, password: PASSWORDS[user] });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    nats = await startAuthenticatedNats();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.drain().catch(() => undefined)));
    nats?.stop();
  });

  it('refuses a client without credentials', async () => {
    await expect(Bus.connect({ url: nats.url, name: 'anonymous' })).rejects.toThrow(/auth/i);
  });

  it('refuses a client with a wrong password', async () => {
    await expect(
      Bus.connect({ url: nats.url, name: 'intruder', user: 'agent-executor', password: 'guess' }),
    ).rejects.toThrow(/auth/i);
  });

  it('lets the executor run a function that a runner serves', async () => {
    const runner = await as('function-runner');
    runner.serve(
      Routes.fnExec('echo_perm'),
      ({ params }): FnExecReply => ({ status: 'success', result: { data: params }, elapsed_ms: 0 }),
      { queue: 'fn.builtin' },
    );
    await runner.flush();
    const executor = await as('agent-executor');
    expect(
      await executor.request(Routes.fnExec('echo_perm'), { params: { a: 1 } }, { timeoutMs: 2000 }),
    ).toMatchObject({ status: 'success', result: { data: { a: 1 } } });
  });

  it.each(['gateway', 'function-runner'] as const)('refuses fn.exec from the %s', async (user) => {
    const runner = await as('function-runner');
    let executed = 0;
    const guarded = Routes.fnExec(`guarded_${user.replace('-', '_')}`);
    runner.serve(
      guarded,
      (): FnExecReply => ({ status: 'success', result: { data: ++executed }, elapsed_ms: 0 }),
      { queue: 'fn.builtin' },
    );
    await runner.flush();
    const caller = await as(user);
    const err = await caller.request(guarded, { params: {} }, { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(executed).toBe(0);
  });

  it.each(['function-runner', 'scheduler'] as const)(
    'lets the %s keep and watch the outcomes of keyed calls',
    async (user) => {
      const bus = await as(user);
      const bucket = await KvBucket.open(bus.connection, 'fn_outcomes', { ttlMs: 60_000 });
      const key = `perm_${user.replace('-', '_')}.k`;
      const seen: unknown[] = [];
      const stop = await bucket.watch(key, (v) => seen.push(v));
      const revision = await bucket.create(key, { state: 'running' });
      expect(revision).toBeGreaterThan(0);
      expect(await bucket.get(key)).toEqual({
        value: { state: 'running' },
        revision,
      });
      await expectEventually(() => expect(seen).toEqual([{ state: 'running' }]));
      stop();
    },
  );

  it('refuses the executor the outcome store: only providers record what their functions did', async () => {
    const executor = await as('agent-executor');
    await expect(
      KvBucket.open(executor.connection, 'fn_outcomes', { ttlMs: 60_000, timeoutMs: 1_000 }),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('refuses a runner subscribing to agent events it has no business reading', async () => {
    const runner = await as('function-runner');
    const denied = await new Promise<boolean>((resolve) => {
      runner.connection.subscribe(Subjects.agentEvents('r1'), { callback: (err) => resolve(Boolean(err)) });
      setTimeout(() => resolve(false), 1500);
    });
    expect(denied).toBe(true);
  });
});
