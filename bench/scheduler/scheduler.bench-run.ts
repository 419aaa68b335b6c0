import { afterAll, describe, expect, it } from 'vitest';
import { Routes } from '@app/contracts';
import { connectMigrated } from '@app/persistence';
import { expectEventually, REPO_ROOT } from '@app/testing';
import { type CountingFunction, DATABASES } from '../../apps/scheduler/src/testing/scheduler.harness';
import { type SchedulerStack, schedulerStack, until } from '../../test/scheduler/support/scheduler-stack';
import { inLanes, lateness } from './lateness';
import { formatSection, type ScenarioResult, writeSection } from './report';

const DELAYS = 1_000;
const SPREAD_MS = 10_000;
const LEAD_MS = 8_000;
const CRON_SIZES = [5, 50];
const CRON_SECONDS = 12;
const DATE = '2026-11-22';

const results: ScenarioResult[] = [];

async function createDelays(
  stack: SchedulerStack,
  fn: CountingFunction,
  prefix: string,
  dueAt: (i: number) => Date,
) {
  await inLanes(DELAYS, 32, (i) =>
    stack.bus.request(
      Routes.schedulerDelayCreate,
      {
        name: `${prefix}-${i}`,
        run_at: dueAt(i).toISOString(),
        function: fn.name,
        params: JSON.stringify({ tag: `${prefix}-${i}` }),
      },
      { timeoutMs: 30_000 },
    ),
  );
}

async function delayScenario(
  stack: SchedulerStack,
  fn: CountingFunction,
  database: string,
  prefix: string,
  burst: boolean,
): Promise<ScenarioResult> {
  const start = Date.now() + LEAD_MS;
  const dueAt = (i: number) => new Date(burst ? start : start + Math.floor((i * SPREAD_MS) / DELAYS));
  await createDelays(stack, fn, prefix, dueAt);
  expect(Date.now(), 'all delays created before the first is due').toBeLessThan(start);
  await until(dueAt(DELAYS - 1));
  await expectEventually(
    () => expect(fn.calls.filter((c) => String(c.params.tag).startsWith(`${prefix}-`)).length).toBe(DELAYS),
    { timeoutMs: 60_000 },
  );
  const { db } = await connectMigrated(stack.database.url, REPO_ROOT);
  const finished = { name: { startsWith: `${prefix}-` }, status: { notIn: ['pending', 'running'] } };
  await expectEventually(async () => expect(await db.delayTask.count({ where: finished })).toBe(DELAYS), {
    timeoutMs: 30_000,
  });
  const tasks = await db.delayTask.findMany({ where: { name: { startsWith: `${prefix}-` } } });
  const fires = await db.taskFire.findMany({ where: { task_id: { in: tasks.map((t) => t.id) } } });
  await db.$disconnect();
  const callLateness = tasks.map((t) => (fn.callsTagged(t.name)[0]?.at ?? Number.NaN) - t.run_at.getTime());
  const wrong = tasks.filter((t) => fn.callsTagged(t.name).length !== 1 || t.status !== 'completed').length;
  return {
    database,
    scenario: burst
      ? '1,000 delays, all due at once (burst)'
      : `1,000 delays, spread over ${SPREAD_MS / 1_000} s`,
    claim: lateness(fires.map((f) => f.lateness_ms ?? Number.NaN)),
    call: lateness(callLateness),
    missedOrDuplicated: wrong + Math.abs(fires.length - tasks.length),
  };
}

async function cronScenario(
  stack: SchedulerStack,
  fn: CountingFunction,
  database: string,
  count: number,
  stop: () => Promise<unknown>,
): Promise<ScenarioResult> {
  const names = Array.from({ length: count }, (_, i) => `cron${count}-${i}`);
  await inLanes(count, 16, (i) =>
    stack.bus.request(
      Routes.schedulerCronCreate,
      {
        name: names[i],
        cron_expr: '* * * * * *',
        function: fn.name,
        params: JSON.stringify({ tag: names[i] }),
      },
      { timeoutMs: 30_000 },
    ),
  );
  await until(new Date(Date.now() + CRON_SECONDS * 1_000));
  await stop();
  const { db } = await connectMigrated(stack.database.url, REPO_ROOT);
  const tasks = await db.cronTask.findMany({ where: { name: { in: names } } });
  const fires = await db.taskFire.findMany({
    where: { task_id: { in: tasks.map((t) => t.id) } },
    orderBy: { scheduled_at: 'asc' },
  });
  await db.$disconnect();
  let wrong = 0;
  const callLateness: number[] = [];
  for (const task of tasks) {
    const mine = fires.filter((f) => f.task_id === task.id);
    const calls = fn.callsTagged(task.name).map((c) => c.at);
    const seconds = mine.map((f) => f.scheduled_at.getTime() / 1_000);
    wrong +=
      Math.abs(calls.length - mine.length) +
      seconds.filter((s, i) => i > 0 && s !== seconds[i - 1] + 1).length;
    wrong += mine.filter((f) => f.status !== 'completed').length;
    callLateness.push(...calls.map((at) => at % 1_000));
  }
  return {
    database,
    scenario: `${count} crons every second, ${CRON_SECONDS} s`,
    claim: lateness(fires.map((f) => f.lateness_ms ?? Number.NaN)),
    call: lateness(callLateness),
    missedOrDuplicated: wrong,
  };
}

describe('scheduler lateness (bench)', () => {
  afterAll(() => {
    const section = formatSection(results, DATE);
    console.log(`\n${section}`);
    if (process.env.BENCH_WRITE === '1') writeSection(`${REPO_ROOT}/docs/benchmarks.md`, section);
  });

  for (const kind of DATABASES) {
    it(`measures delays and cron ticks on ${kind.name}`, async () => {
      const stack = await schedulerStack(kind, { SCHEDULER_MAX_TASKS_PER_OWNER: '1000000' });
      try {
        const fn = await stack.countingFunction();
        await stack.startScheduler();
        await delayScenario(stack, fn, kind.name, 'warmup', true);
        results.push(await delayScenario(stack, fn, kind.name, 'spread', false));
        results.push(await delayScenario(stack, fn, kind.name, 'burst', true));
      } finally {
        await stack.close();
      }
      for (const count of CRON_SIZES) {
        const crons = await schedulerStack(kind);
        try {
          const fn = await crons.countingFunction();
          const scheduler = await crons.startScheduler();
          results.push(await cronScenario(crons, fn, kind.name, count, () => scheduler.stop()));
        } finally {
          await crons.close();
        }
      }
    });
  }
});
