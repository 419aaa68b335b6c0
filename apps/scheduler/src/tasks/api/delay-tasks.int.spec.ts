import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { type AgentRunReply, type AgentRunRequest, Routes } from '@app/contracts';
import { expectEventually } from '@app/testing';
import {
  type CountingFunction,
  DATABASES,
  inMs,
  type SchedulerWorld,
  schedulerWorld,
} from '../../testing/scheduler.harness';
import { DelayTasksService } from './delay-tasks.service';

describe.each(DATABASES)('delay tasks on $name (real Redis and NATS)', (kind) => {
  let world: SchedulerWorld;
  let fn: CountingFunction;
  let delays: DelayTasksService;

  beforeAll(async () => {
    world = await schedulerWorld(kind);
    fn = world.fn;
    delays = (await world.start()).get(DelayTasksService);
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
