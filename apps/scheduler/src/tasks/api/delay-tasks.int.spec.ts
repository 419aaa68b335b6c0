import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { AGENT_FUNCTION_PROVIDER, type AgentRunReply, type AgentRunRequest, Routes } from '@app/contracts';
import { expectEventually } from '@app/testing';
import {
  type CountingFunction,
  DATABASES,
  inMs,
  type RunningScheduler,
  type SchedulerWorld,
  schedulerWorld,
  serveCountingFunction,
} from '../../testing/scheduler.harness';
import { DelayTasksService } from './delay-tasks.service';

describe.each(DATABASES)('delay tasks on $name (real Redis and NATS)', (kind) => {
  let world: SchedulerWorld;
  let fn: CountingFunction;
  let delays: DelayTasksService;
  let scheduler: RunningScheduler;

  beforeAll(async () => {
    world = await schedulerWorld(kind);
    fn = world.fn;
    scheduler = await world.start();
    delays = scheduler.get(DelayTasksService);
  });
  afterAll(() => world.close());

  it('fires a delay 2 s ahead once, with its params, and stores the result', async () => {
    const created = await delays.create({
      name: 'in-two-seconds',
      run_at: inMs(2_000),
      function: fn.name,
      params: '{"tag":"two"}',
      owner: 'alice',
    });
    expect(created.status).toBe('pending');
    const done = await expectEventually(async () => {
      const task = await delays.get('in-two-seconds');
      expect(task.status).toBe('completed');
      return task;
    });
    expect(fn.callsTagged('two')).toHaveLength(1);
    expect(fn.callsTagged('two')[0].caller).toMatchObject({ kind: 'scheduler', principal: 'alice' });
    expect(done.result).toEqual({ message: 'counted 1' });
    expect(new Date(done.executed_at!).getTime()).toBeGreaterThanOrEqual(new Date(done.run_at).getTime());
  });

  it('never fires a delay cancelled before its time', async () => {
    await delays.create({
      name: 'cancel-me',
      run_at: inMs(1_000),
      function: fn.name,
      params: { tag: 'cancelled' },
    });
    await delays.create({
      name: 'witness',
      run_at: inMs(1_200),
      function: fn.name,
      params: { tag: 'witness' },
    });
    const cancelled = await delays.cancel('cancel-me');
    expect(cancelled.status).toBe('cancelled');
    await expectEventually(() => expect(fn.callsTagged('witness')).toHaveLength(1));
    expect(fn.callsTagged('cancelled')).toHaveLength(0);
    expect((await delays.get('cancel-me')).status).toBe('cancelled');
    await expect(delays.cancel('cancel-me')).rejects.toThrow(
      /is cancelled; only a pending delay can be cancelled/,
    );
  });

  it('runs an agent turn on its session when the task carries a message, and stores the reply', async () => {
    const agentBus = await Bus.connect({ url: world.nats.url, name: 'agent-stub' });
    const turns: AgentRunRequest[] = [];
    agentBus.serve(Routes.agentRun, (request): AgentRunReply => {
      turns.push(request);
      return {
        session_id: 'sess-9',
        run_id: 'run-1',
        reply: 'Time to stretch!',
        function_calls: [],
        finish_reason: 'final',
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      };
    });
    await agentBus.flush();
    await delays.create({
      name: 'agent-turn',
      run_at: inMs(500),
      message: 'remind the user to stretch',
      session_id: 'sess-9',
      agent: 'coach',
      owner: 'alice',
    });
    const task = await expectEventually(async () => {
      const t = await delays.get('agent-turn');
      expect(t.status).toBe('completed');
      return t;
    });
    expect(turns).toEqual([
      { message: 'remind the user to stretch', session_id: 'sess-9', agent: 'coach', principal: 'alice' },
    ]);
    expect(task.result).toMatchObject({ reply: 'Time to stretch!', run_id: 'run-1', finish_reason: 'final' });
    await agentBus.drain();
  });

  /** A fire acts for its task's key as it stands: the key must be on record. */
  const recordKey = async (id: string) =>
    (
      await scheduler.db.apiKey.create({
        data: { id, name: id, principal: 'ops', prefix: id, hash: `hash-${id}`, scopes: 'chat' },
      })
    ).id;

  it('runs an agent turn for the key that created the task: its usage charged to the key, refused once its quota is spent', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keyId = await recordKey(`key-${kind}-${Date.now()}`);
    const day = new Date().toISOString().slice(0, 10);
    const agentBus = await Bus.connect({ url: world.nats.url, name: 'agent-stub' });
    const turns: AgentRunRequest[] = [];
    let slotsHeld = -1;
    agentBus.serve(Routes.agentRun, async (request): Promise<AgentRunReply> => {
      turns.push(request);
      slotsHeld = await redis.zcard(`ac:slots:${keyId}`);
      const usage = { prompt_tokens: 5, completion_tokens: 7 };
      return {
        session_id: 's',
        run_id: 'run-k',
        reply: 'Done.',
        function_calls: [],
        finish_reason: 'final',
        usage,
      };
    });
    await agentBus.flush();
    const turn = (name: string) =>
      delays.create({ name, run_at: inMs(300), message: 'tidy up', owner: 'alice', key_id: keyId });
    try {
      await turn('keyed-turn');
      await expectEventually(async () => expect((await delays.get('keyed-turn')).status).toBe('completed'));
      expect(turns).toMatchObject([{ key_id: keyId, principal: 'alice' }]);
      expect(slotsHeld).toBe(1);
      await expectEventually(async () => {
        expect(await redis.get(`ac:tokens:${keyId}:${day}`)).toBe('12');
        expect(await redis.zcard(`ac:slots:${keyId}`)).toBe(0);
      });

      await redis.set(`ac:tokens:${keyId}:${day}`, String(Number.MAX_SAFE_INTEGER));
      await turn('over-quota');
      const refused = await expectEventually(async () => {
        const task = await delays.get('over-quota');
        expect(task.status).toBe('failed');
        return task;
      });
      expect(refused.error).toMatch(/daily token quota of \d+ tokens used up/);
      expect(turns).toHaveLength(1);
    } finally {
      await agentBus.drain();
      await redis.del(`ac:tokens:${keyId}:${day}`);
      redis.disconnect();
    }
  });

  it('calls an agent served as a function for the key that created the task, charging its usage to the key', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keyId = await recordKey(`key-fn-${kind}-${Date.now()}`);
    const day = new Date().toISOString().slice(0, 10);
    const agentFn = await serveCountingFunction(world.nats.url, {
      provider: AGENT_FUNCTION_PROVIDER,
      usage: { prompt_tokens: 3, completion_tokens: 4 },
    });
    const plain = await serveCountingFunction(world.nats.url, {
      usage: { prompt_tokens: 50, completion_tokens: 50 },
    });
    try {
      for (const [name, fn] of [
        ['agent-fn', agentFn],
        ['plain-fn', plain],
      ] as const)
        await delays.create({ name, run_at: inMs(500), function: fn.name, owner: 'bo', key_id: keyId });
      await expectEventually(async () => {
        expect((await delays.get('agent-fn')).status).toBe('completed');
        expect((await delays.get('plain-fn')).status).toBe('completed');
      });
      expect(agentFn.calls[0].caller).toMatchObject({ kind: 'scheduler', principal: 'bo', key_id: keyId });
      // only the agent's run is the key's: a plain function's report is not a run of it
      await expectEventually(async () => expect(await redis.get(`ac:tokens:${keyId}:${day}`)).toBe('7'));
    } finally {
      await Promise.all([agentFn.close(), plain.close()]);
      await redis.del(`ac:tokens:${keyId}:${day}`);
      redis.disconnect();
    }
  });

  it('lets a fire in flight finish when the scheduler stops (SIGTERM)', async () => {
    const alone = await schedulerWorld(kind, { delayMs: 800 });
    const stopping = await alone.start();
    await stopping
      .get(DelayTasksService)
      .create({ name: 'in-flight', run_at: inMs(300), function: alone.fn.name });
    await expectEventually(() => expect(alone.fn.calls).toHaveLength(1));
    await stopping.stop();
    expect(await stopping.db.delayTask.findUniqueOrThrow({ where: { name: 'in-flight' } })).toMatchObject({
      status: 'completed',
    });
    await alone.close();
  });
});
