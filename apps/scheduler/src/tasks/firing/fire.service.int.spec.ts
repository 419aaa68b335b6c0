import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CountingFunction,
  DATABASES,
  inMs,
  type RunningScheduler,
  type SchedulerWorld,
  schedulerWorld,
} from '../../testing/scheduler.harness';
import { CronTasksService } from '../api/cron-tasks.service';
import { DelayTasksService } from '../api/delay-tasks.service';
import { FireService } from './fire.service';

const YEARLY = { expr: '0 0 1 1 *', timezone: 'UTC' };
const wholeSecondsAgo = (n: number) => Math.floor(Date.now() / 1_000) * 1_000 - n * 1_000;

// Duplicate triggers (BullMQ's own duplicates, a second replica, a retried job) for one due time:
// the claim lets exactly one of them run the task.
describe.each(DATABASES)('firing on $name: one run per due time, however many triggers', (kind) => {
  let world: SchedulerWorld;
  let replicas: RunningScheduler[];
  let fn: CountingFunction;

  beforeAll(async () => {
    world = await schedulerWorld(kind, { delayMs: 20 });
    fn = world.fn;
    replicas = [await world.start(), await world.start()];
  });
  afterAll(() => world.close());

  const fireServices = () => replicas.map((r) => r.get(FireService));

  it('runs a delay once when both replicas fire it five times each, at once', async () => {
    await replicas[0]
      .get(DelayTasksService)
      .create({ name: 'dup-delay', run_at: inMs(60_000), function: fn.name, params: '{"tag":"dup-delay"}' });
    const { id, run_at } = await replicas[0].db.delayTask.findUniqueOrThrow({ where: { name: 'dup-delay' } });
    await Promise.all(
      fireServices().flatMap((fire) => Array.from({ length: 5 }, () => fire.fireDelay(id, run_at.getTime()))),
    );
    expect(fn.callsTagged('dup-delay')).toHaveLength(1);
    expect(await replicas[0].db.taskFire.count({ where: { task_id: id } })).toBe(1);
    expect((await replicas[1].get(DelayTasksService).get('dup-delay')).status).toBe('completed');
  });

  it('runs a cron tick once and counts it once when both replicas fire it five times each', async () => {
    const crons = replicas[0].get(CronTasksService);
    await crons.create({
      name: 'dup-cron',
      cron_expr: YEARLY.expr,
      function: fn.name,
      params: '{"tag":"dup-cron"}',
    });
    const { id } = await replicas[0].db.cronTask.findUniqueOrThrow({ where: { name: 'dup-cron' } });
    const due = wholeSecondsAgo(5);
    await Promise.all(
      fireServices().flatMap((fire) => Array.from({ length: 5 }, () => fire.fireCron(id, due, YEARLY))),
    );
    expect(fn.callsTagged('dup-cron')).toHaveLength(1);
    const task = await crons.get('dup-cron');
    expect(task.run_count).toBe(1);
    expect(task.recent_fires).toHaveLength(1);
    expect(task.recent_fires[0]).toMatchObject({
      scheduled_at: new Date(due).toISOString(),
      status: 'completed',
    });
  });

  it('runs two different ticks of one cron once each', async () => {
    const crons = replicas[0].get(CronTasksService);
    await crons.create({
      name: 'two-ticks',
      cron_expr: YEARLY.expr,
      function: fn.name,
      params: '{"tag":"two-ticks"}',
      max_runs: 2,
    });
    const { id } = await replicas[0].db.cronTask.findUniqueOrThrow({ where: { name: 'two-ticks' } });
    const [a, b, c] = [wholeSecondsAgo(3), wholeSecondsAgo(2), wholeSecondsAgo(1)];
    const [one, two] = fireServices();
    await Promise.all([
      one.fireCron(id, a, YEARLY),
      two.fireCron(id, b, YEARLY),
      one.fireCron(id, b, YEARLY),
      two.fireCron(id, a, YEARLY),
    ]);
    await one.fireCron(id, c, YEARLY);
    expect(fn.callsTagged('two-ticks')).toHaveLength(2);
    expect(await crons.get('two-ticks')).toMatchObject({ run_count: 2, enabled: false });
  });
  it('records as missed the ticks between the watermark and the tick it fires (a trigger re-armed after them)', async () => {
    const crons = replicas[0].get(CronTasksService);
    await crons.create({
      name: 'skipped-ticks',
      cron_expr: '* * * * * *',
      function: fn.name,
      params: '{"tag":"skipped-ticks"}',
    });
    const { db } = replicas[0];
    const { id } = await db.cronTask.findUniqueOrThrow({ where: { name: 'skipped-ticks' } });
    const due = wholeSecondsAgo(1);
    await db.cronTask.update({ where: { id }, data: { next_run_at: new Date(due - 3_000) } });
    await fireServices()[0].fireCron(id, due, { expr: '* * * * * *', timezone: 'UTC' });
    const fires = await db.taskFire.findMany({
      where: { task_id: id, scheduled_at: { lte: new Date(due) } },
      orderBy: { scheduled_at: 'asc' },
    });
    await crons.delete('skipped-ticks');
    expect(fires.map((f) => [f.scheduled_at.getTime() - due, f.status])).toEqual([
      [-3_000, 'missed'],
      [-2_000, 'missed'],
      [-1_000, 'missed'],
      [0, 'completed'],
    ]);
    expect(fires.filter((f) => f.status !== 'missed')).toHaveLength(1);
  });

  // Tick a's claim was cut (the database restarted: its job is tried again seconds later); tick b,
  // fired meanwhile, recorded a as skipped. a's own trigger, when it comes, fires it, once.
  it('fires a tick recorded missed by a later one when its own trigger comes within the grace, once', async () => {
    const crons = replicas[0].get(CronTasksService);
    // both ticks before the cron exists: its own triggers (every second from its creation) fire none of them
    const [a, b] = [wholeSecondsAgo(2), wholeSecondsAgo(1)];
    await crons.create({
      name: 'late-tick',
      cron_expr: '* * * * * *',
      function: fn.name,
      params: '{"tag":"late-tick"}',
    });
    const { db } = replicas[0];
    const { id } = await db.cronTask.findUniqueOrThrow({ where: { name: 'late-tick' } });
    const everySecond = { expr: '* * * * * *', timezone: 'UTC' };
    await db.cronTask.update({ where: { id }, data: { next_run_at: new Date(a) } });
    await fireServices()[0].fireCron(id, b, everySecond);
    expect(await db.taskFire.findFirst({ where: { task_id: id, scheduled_at: new Date(a) } })).toMatchObject({
      status: 'missed',
    });
    await Promise.all(
      fireServices().flatMap((fire) => Array.from({ length: 3 }, () => fire.fireCron(id, a, everySecond))),
    );
    const fires = await db.taskFire.findMany({
      where: { task_id: id, scheduled_at: { lte: new Date(b) } },
      orderBy: { scheduled_at: 'asc' },
    });
    await crons.delete('late-tick');
    expect(fires.map((f) => [f.scheduled_at.getTime(), f.status])).toEqual([
      [a, 'completed'],
      [b, 'completed'],
    ]);
    // each of the two fires called the function once (a fire's call carries its own key); the cron's
    // own later ticks, fired meanwhile on a slow machine, are not these
    const callsOf = (fireId: string) => fn.callsTagged('late-tick').filter((c) => c.key === `fire-${fireId}`);
    expect(fires.map((f) => callsOf(f.id).length)).toEqual([1, 1]);
  });
});
