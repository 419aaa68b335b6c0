import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus, KvBucket } from '@app/bus';
import { AppError, Buckets, type FnExecReply, Routes, type ServiceName, Subjects } from '@app/contracts';
import { expectEventually, type NatsWithUsers, startNatsWithUsers } from '@app/testing';

describe('the bus permissions (deploy/nats/auth.conf on a real nats-server)', () => {
  let nats: NatsWithUsers;
  const buses: Bus[] = [];
  /** A connection as the service's user, taking its replies on the service's inbox, as the service does. */
  const as = async (user: ServiceName) => {
    const env = nats.envOf(user);
    const bus = await Bus.connect({
      url: nats.url,
      name: `test-${user}`,
      user,
      password: env.NATS_PASSWORD,
      inboxPrefix: Subjects.inbox(user),
    });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    nats = await startNatsWithUsers();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.drain().catch(() => undefined)));
    await nats?.stop();
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

  it('passes every heartbeat of a slow function and then its reply to the caller', async () => {
    const runner = await as('function-runner');
    runner.serve(
      Routes.fnExec('slow_perm'),
      async (_request, { progress }): Promise<FnExecReply> => {
        for (let beat = 1; beat <= 3; beat++) {
          await new Promise((resolve) => setTimeout(resolve, 30));
          progress?.({ beat });
        }
        return { status: 'success', result: { data: 'done' }, elapsed_ms: 90 };
      },
      { queue: 'fn.builtin' },
    );
    await runner.flush();
    const executor = await as('agent-executor');
    const beats: unknown[] = [];
    const reply = await executor.request(
      Routes.fnExec('slow_perm'),
      { params: {} },
      { timeoutMs: 5_000, progress: { silenceMs: 2_000, onProgress: (p) => beats.push(p) } },
    );
    expect(reply).toMatchObject({ status: 'success', result: { data: 'done' } });
    expect(beats).toEqual([{ beat: 1 }, { beat: 2 }, { beat: 3 }]);
  });

  it.each(['function-runner', 'scheduler', 'agent-executor'] as const)(
    'lets the %s, a function provider, keep and watch the outcomes of keyed calls',
    async (user) => {
      const bus = await as(user);
      const bucket = await KvBucket.open(bus.connection, Buckets.fnOutcomes, { ttlMs: 60_000 });
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

  it('refuses the gateway the outcome store: only providers record what their functions did', async () => {
    const gateway = await as('gateway');
    await expect(
      KvBucket.open(gateway.connection, Buckets.fnOutcomes, { ttlMs: 60_000, timeoutMs: 1_000 }),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('refuses a runner subscribing to agent events it has no business reading', async () => {
    expect(await refused(await as('function-runner'), Subjects.agentEvents('r1'))).toBe(true);
  });

  it("refuses a service reading the replies meant for another service's inbox", async () => {
    expect(await refused(await as('function-runner'), `${Subjects.inbox('agent-executor')}.>`)).toBe(true);
    expect(await refused(await as('gateway'), '_INBOX.>')).toBe(true);
  });
});

/** Whether the broker refuses `bus` a subscription to `subject` (it says so within a moment). */
function refused(bus: Bus, subject: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    bus.connection.subscribe(subject, { callback: (err) => resolve(Boolean(err)) });
    setTimeout(() => resolve(false), 1500);
  });
}
