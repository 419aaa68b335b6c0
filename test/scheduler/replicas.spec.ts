import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes } from '@app/contracts';
import { connectMigrated } from '@app/persistence';
import { expectEventually, type ServiceProcess } from '@app/testing';
import { type CountingFunction, DATABASES } from '../../apps/scheduler/src/testing/scheduler.harness';
import { type SchedulerStack, schedulerStack } from './support/scheduler-stack';

const CRONS = 20;
const SECONDS = 10;

// Two scheduler processes on one database and one queue; 20 crons fire every second for 10 s.
// The two databases' stacks share nothing (own NATS, database, queue prefix, function): side by side.
describe.concurrent.each(DATABASES)('two scheduler replicas on $name', (kind) => {
  let stack: SchedulerStack;
  let fn: CountingFunction;
  let replicas: ServiceProcess[];

  beforeAll(async () => {
    stack = await schedulerStack(kind);
    fn = await stack.countingFunction();
    replicas = await Promise.all([stack.startScheduler(), stack.startScheduler()]);
  });
  afterAll(() => stack.close());

  it('fires each tick of each cron exactly once, the work shared between them', async () => {
    const names = Array.from({ length: CRONS }, (_, i) => `tick-${i}`);
    await Promise.all(
      names.map((name) =>
        stack.bus.request(Routes.schedulerCronCreate, {
          name,
          cron_expr: '* * * * * *',
          function: fn.name,
          params: JSON.stringify({ tag: name }),
        }),
      ),
    );
    await expectEventually(
      () => expect(Math.min(...names.map((n) => fn.callsTagged(n).length))).toBeGreaterThanOrEqual(SECONDS),
      {
        timeoutMs: (SECONDS + 5) * 1_000,
      },
    );
    await Promise.all(replicas.map((r) => r.stop())); // SIGTERM: fires in flight finish

    const { db } = await connectMigrated(stack.database.url);
    const tasks = await db.cronTask.findMany();
    const fires = await db.taskFire.findMany({
      where: { task_kind: 'cron' },
      orderBy: { scheduled_at: 'asc' },
    });
    await db.$disconnect();
    for (const task of tasks) {
      const calls = fn.callsTagged(task.name).map((c) => c.at);
      const mine = fires.filter((f) => f.task_id === task.id);
      const seconds = mine.map((f) => f.scheduled_at.getTime() / 1_000);
      expect(seconds, `${task.name}: one fire per second`).toEqual(seconds.map((_, i) => seconds[0] + i));
      expect(
        mine.every((f) => f.status === 'completed'),
        `${task.name}: every tick ran`,
      ).toBe(true);
      expect(calls.length, `${task.name}: one call per fire`).toBe(mine.length);
      expect(task.run_count).toBe(mine.length);
    }
    for (const replica of replicas) expect(replica.output()).toMatch(/cron tick completed/);
  });
});
