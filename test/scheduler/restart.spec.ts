import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreateCronRequest, type CreateDelayRequest, Routes } from '@app/contracts';
import { connectMigrated } from '@app/persistence';
import { expectEventually, type ServiceProcess } from '@app/testing';
import { type CountingFunction, DATABASES } from '../../apps/scheduler/src/testing/scheduler.harness';
import { type SchedulerStack, schedulerStack, until } from './support/scheduler-stack';

// kill -9 the scheduler with tasks pending, one running, a cron ticking; restart it later.
// The two databases' stacks share nothing (own NATS, database, queue prefix, functions): side by side.
describe.concurrent.each(DATABASES)('a scheduler killed (SIGKILL) and restarted, on $name', (kind) => {
  let stack: SchedulerStack;
  let fn: CountingFunction;
  let slow: CountingFunction;
  let first: ServiceProcess;
  let t0 = 0;
  /** How long the first scheduler took to start: the restart takes about as long on this machine now. */
  let startMs = 0;
  const at = (ms: number) => new Date(t0 + ms);
  // Due after the restart is done: one found past due at start is a misfire (`missed`), so the
  // margin follows how long a start takes here (a loaded machine's start took over 4 s).
  const afterRestartMs = () => 7_000 + Math.max(4_000, 3 * startMs);

  const delay = (name: string, runAt: Date, extra: Partial<CreateDelayRequest> = {}, target = fn) =>
    stack.bus.request(Routes.schedulerDelayCreate, {
      name,
      run_at: runAt.toISOString(),
      function: target.name,
      params: JSON.stringify({ tag: name }),
      ...extra,
    });
  const getDelay = (name: string) =>
    stack.bus.request(Routes.schedulerDelayGet, { name }, { timeoutMs: 5_000 });

  beforeAll(async () => {
    stack = await schedulerStack(kind);
    fn = await stack.countingFunction();
    slow = await stack.countingFunction({ delayMs: 60_000 });
    const starting = Date.now();
    first = await stack.startScheduler();
    startMs = Date.now() - starting;
    t0 = Date.now();
  });
  afterAll(() => stack.close());

  it(
    'fires what is due later once, misses what fell in the downtime, records what it was running as unknown',
    { timeout: 60_000 },
    async () => {
      await delay('before-kill', at(3_000));
      await delay('running-at-kill', at(3_000), {}, slow);
      await delay('due-while-down', at(6_000));
      await delay('due-while-down-run-once', at(6_000), { misfire_policy: 'run_once' });
      await delay('after-restart', at(afterRestartMs()));
      const cron: CreateCronRequest = {
        name: 'every-second',
        cron_expr: '* * * * * *',
        function: fn.name,
        params: '{"tag":"cron"}',
      };
      await stack.bus.request(Routes.schedulerCronCreate, cron);

      await expectEventually(async () => {
        expect((await getDelay('before-kill')).status).toBe('completed');
        expect((await getDelay('running-at-kill')).status).toBe('running');
      });
      await first.kill();
      const killedAt = new Date();
      await until(at(7_000));
      const second = await stack.startScheduler();
      const restartedAt = new Date();

      await expectEventually(async () => expect((await getDelay('after-restart')).status).toBe('completed'), {
        timeoutMs: afterRestartMs(),
      });
      expect(await getDelay('due-while-down')).toMatchObject({ status: 'missed' });
      expect(await getDelay('due-while-down-run-once')).toMatchObject({ status: 'completed' });
      // its function was still running, and no record of the call says how it ended
      expect(await getDelay('running-at-kill')).toMatchObject({ status: 'unknown', error: /^interrupted/ });
      for (const tag of ['before-kill', 'due-while-down-run-once', 'after-restart'])
        expect(fn.callsTagged(tag), tag).toHaveLength(1);
      expect(fn.callsTagged('due-while-down')).toHaveLength(0);
      expect(slow.callsTagged('running-at-kill')).toHaveLength(1);
      expect(fn.callsTagged('after-restart')[0].at).toBeGreaterThanOrEqual(at(afterRestartMs()).getTime());

      await second.stop(); // SIGTERM: the tick in flight finishes
      const { db } = await connectMigrated(stack.database.url);
      const task = await db.cronTask.findUniqueOrThrow({ where: { name: 'every-second' } });
      const fires = await db.taskFire.findMany({
        where: { task_id: task.id },
        orderBy: { scheduled_at: 'asc' },
      });
      await db.$disconnect();
      const seconds = fires.map((f) => f.scheduled_at.getTime() / 1_000);
      expect(seconds, 'one fire per second, none lost').toEqual(seconds.map((_, i) => seconds[0] + i));
      const missed = fires.filter((f) => f.status === 'missed').map((f) => f.scheduled_at);
      expect(missed.length).toBeGreaterThanOrEqual(3);
      expect(missed.every((t) => t >= new Date(killedAt.getTime() - 1_000) && t <= restartedAt)).toBe(true);
      // A tick claimed as the process died may or may not have reached the function: its outcome is unknown.
      const completed = fires.filter((f) => f.status === 'completed').length;
      const interrupted = fires.filter((f) => f.status === 'unknown');
      expect(interrupted.length).toBeLessThanOrEqual(1);
      expect(interrupted.every((f) => f.error?.startsWith('interrupted'))).toBe(true);
      expect(fires.filter((f) => f.status === 'failed')).toEqual([]);
      expect(fires.filter((f) => f.status === 'running')).toEqual([]);
      const cronCalls = fn.callsTagged('cron').map((c) => c.at);
      expect(task.run_count).toBe(completed + interrupted.length);
      expect(cronCalls.length).toBeGreaterThanOrEqual(completed);
      expect(cronCalls.length).toBeLessThanOrEqual(completed + interrupted.length);
    },
  );
});
