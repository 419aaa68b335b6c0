import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsRegistry } from '@app/observability';
import { expectEventually } from '@app/testing';
import {
  type CountingFunction,
  DATABASES,
  inMs,
  type SchedulerWorld,
  schedulerWorld,
  serveCountingFunction,
} from '../../testing/scheduler.harness';
import { CronTasksService } from './cron-tasks.service';

const EVERY_SECOND = '* * * * * *';

async function cronExecutions(status: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('ac_cron_executions_total')?.get();
  return metric?.values.find((v) => v.labels.status === status)?.value ?? 0;
}

describe.each(DATABASES)('cron tasks on $name (real Redis and NATS)', (kind) => {
  let world: SchedulerWorld;
  let fn: CountingFunction;
  let failing: CountingFunction;
  let crons: CronTasksService;

  beforeAll(async () => {
    world = await schedulerWorld(kind);
    fn = world.fn;
    // Served before the scheduler starts, as `fn` is: it does not announce itself as a function
    // host does, so a catalogue gathered just before (by a case beside it) would not know it yet.
    failing = await serveCountingFunction(world.nats.url, { fail: true });
    crons = (await world.start()).get(CronTasksService);
  });
  afterAll(async () => {
    await failing?.close();
    await world?.close();
  });

  // Each case waits on whole seconds of a cron of its own (its own name, function tag or
  // function), and none reads what another writes: they share the scheduler, side by side.
  it.concurrent('runs max_runs=3 exactly 3 times, then disables itself', async () => {
    const completedBefore = await cronExecutions('completed');
    await crons.create({
      name: 'three-times',
      cron_expr: EVERY_SECOND,
      function: fn.name,
      params: '{"tag":"three"}',
      max_runs: 3,
    });
    await crons.create({
      name: 'witness',
      cron_expr: EVERY_SECOND,
      function: fn.name,
      params: '{"tag":"witness"}',
    });
    const task = await expectEventually(async () => {
      const t = await crons.get('three-times');
      expect(t.enabled).toBe(false);
      return t;
    });
    const witnessed = fn.callsTagged('witness').length;
    await expectEventually(() =>
      expect(fn.callsTagged('witness').length).toBeGreaterThanOrEqual(witnessed + 2),
    );
    expect(fn.callsTagged('three')).toHaveLength(3);
    expect(task).toMatchObject({ run_count: 3, last_status: 'completed', next_run_at: null });
    expect(task.recent_fires.map((f) => f.status)).toEqual(['completed', 'completed', 'completed']);
    const due = task.recent_fires.map((f) => new Date(f.scheduled_at).getTime());
    expect(due.every((t) => t % 1_000 === 0)).toBe(true);
    expect(new Set(due).size).toBe(3);
    expect(await cronExecutions('completed')).toBeGreaterThanOrEqual(completedBefore + 3);
    await crons.delete('witness');
  });

  it.concurrent('stops at until: no run after it, and the task ends disabled', async () => {
    const until = inMs(2_500);
    await crons.create({
      name: 'until-soon',
      cron_expr: EVERY_SECOND,
      function: fn.name,
      params: '{"tag":"until"}',
      until,
    });
    const task = await expectEventually(async () => {
      const t = await crons.get('until-soon');
      expect(t.enabled).toBe(false);
      return t;
    });
    const calls = fn.callsTagged('until');
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(task.run_count).toBe(calls.length);
    expect(task.recent_fires.every((f) => new Date(f.scheduled_at) < new Date(until))).toBe(true);
  });

  it.concurrent('records a failing run as failed and keeps going', async () => {
    await crons.create({ name: 'fails', cron_expr: EVERY_SECOND, function: failing.name, max_runs: 2 });
    const task = await expectEventually(async () => {
      const t = await crons.get('fails');
      expect(t.enabled).toBe(false);
      return t;
    });
    expect(task).toMatchObject({ run_count: 2, last_status: 'failed' });
    expect(task.recent_fires.map((f) => f.error)).toEqual(['disk full', 'disk full']);
  });

  it.concurrent('deletes a cron: it stops firing and is gone', async () => {
    await crons.create({
      name: 'delete-me',
      cron_expr: EVERY_SECOND,
      function: fn.name,
      params: '{"tag":"deleted"}',
    });
    await expectEventually(() => expect(fn.callsTagged('deleted').length).toBeGreaterThanOrEqual(1));
    await crons.delete('delete-me');
    const after = fn.callsTagged('deleted').length;
    await crons.create({
      name: 'witness-2',
      cron_expr: EVERY_SECOND,
      function: fn.name,
      params: '{"tag":"witness-2"}',
    });
    await expectEventually(() => expect(fn.callsTagged('witness-2').length).toBeGreaterThanOrEqual(2));
    expect(fn.callsTagged('deleted').length).toBeLessThanOrEqual(after + 1);
    await expect(crons.get('delete-me')).rejects.toThrow(/cron 'delete-me' not found/);
    await crons.delete('witness-2');
  });
});
