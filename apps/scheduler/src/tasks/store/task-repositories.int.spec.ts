import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMigrated, type Db } from '@app/persistence';
import { DATABASES, migratedDatabase, type TestDatabase } from '../../testing/scheduler.harness';
import type { TaskTargetSpec } from '../domain/task';
import { CronTaskRepository } from './cron-task.repository';
import { DelayTaskRepository } from './delay-task.repository';
import { TaskFireRepository } from './task-fire.repository';

// The repositories are the one place that knows how a task is stored: what they are given comes
// back as the same domain task, its statuses typed and a stored result read back as its value.

const RUN_AT = new Date('2030-01-01T09:00:00.000Z');
const NOW = new Date('2030-01-01T09:00:00.250Z');
const FUNCTION_TARGET: TaskTargetSpec = {
  target: 'function',
  function_name: 'send_message',
  params: '{"to":"alice"}',
  agent: null,
  session_id: null,
  message: null,
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
};

describe.each(DATABASES)('the task repositories on $name', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let delays: DelayTaskRepository;
  let crons: CronTaskRepository;
  let fires: TaskFireRepository;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    db = (await connectMigrated(database.url)).db;
    delays = new DelayTaskRepository(db);
    crons = new CronTaskRepository(db);
    fires = new TaskFireRepository(db);
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  it('gives a delay back as it was stored, then with its outcome once it has run', async () => {
    const created = await delays.create(
      {
        ...FUNCTION_TARGET,
        name: 'remind',
        owner: 'alice',
        key_id: 'key_alice',
        run_at: RUN_AT,
        misfire_policy: 'run_once',
      },
      60_000,
    );
    expect(created).toEqual({
      ...FUNCTION_TARGET,
      id: expect.any(String),
      name: 'remind',
      owner: 'alice',
      key_id: 'key_alice',
      run_at: RUN_AT,
      misfire_policy: 'run_once',
      catchup_window_ms: 60_000,
      status: 'pending',
      result: null,
      error: null,
      executed_at: null,
      created_at: expect.any(Date),
    });

    const fireId = await fires.insertClaim('delay', created.id, RUN_AT, 'running', NOW);
    const running = await delays.leavePending(created.id, 'running', NOW);
    expect(running).toMatchObject({ status: 'running', executed_at: NOW });
    await delays.finish(
      { task: running!, fireId: fireId! },
      { status: 'completed', result: { sent: 2 } },
      NOW,
    );

    expect(await delays.findByName('remind')).toEqual({
      ...running,
      status: 'completed',
      result: { sent: 2 },
    });
    expect(await fires.recent('delay', created.id, 5)).toEqual([
      {
        id: fireId,
        task_kind: 'delay',
        task_id: created.id,
        scheduled_at: RUN_AT,
        status: 'completed',
        result: { sent: 2 },
        error: null,
        lateness_ms: 250,
        started_at: NOW,
        finished_at: NOW,
      },
    ]);
  });

  it('gives a cron back with its run counted and retired once it has no run left', async () => {
    const next = new Date('2030-01-01T09:01:00.000Z');
    const created = await crons.create({
      ...FUNCTION_TARGET,
      name: 'once-a-minute',
      owner: '',
      key_id: null,
      cron_expr: '* * * * *',
      timezone: 'UTC',
      until: null,
      max_runs: 1,
      next_run_at: RUN_AT,
    });
    expect(created).toMatchObject({ enabled: true, run_count: 0, last_run_at: null, last_status: null });

    const fireId = await fires.insertClaim('cron', created.id, RUN_AT, 'running', NOW);
    const counted = await crons.countRun(created.id, RUN_AT, NOW);
    expect(counted).toMatchObject({ run_count: 1, last_run_at: NOW, next_run_at: RUN_AT });
    const retired = await crons.finishTick(
      { task: counted!, fireId: fireId! },
      { status: 'failed', error: 'disk full' },
      NOW,
      next,
    );

    expect(retired).toBe(true);
    expect(await crons.findById(created.id)).toEqual({ ...counted, enabled: false, last_status: 'failed' });
    expect(await crons.countRun(created.id, next, NOW)).toBeNull();
    expect(await fires.recent('cron', created.id, 5)).toMatchObject([
      { status: 'failed', error: 'disk full', result: null },
    ]);
  });
});
