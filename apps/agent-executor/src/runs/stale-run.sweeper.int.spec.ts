import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformConfig } from '@app/config';
import type { Logger } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { RunRepository } from '../store/run.repository';
import { STALE_RUN_ERROR, StaleRunSweeper } from './stale-run.sweeper';
import { runView } from './run-view';

const RUN_TIMEOUT_MS = 300_000;
const config = { executor: { run_timeout: RUN_TIMEOUT_MS } } as PlatformConfig;
const warnings: string[] = [];
const logger = { warn: (message: string) => warnings.push(message) } as unknown as Logger;

describe.each(MIGRATED_DATABASES)('StaleRunSweeper on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let runs: RunRepository;
  /** A stored run as the runs API shows it, with its owner. */
  const viewOf = async (id: string) => {
    const record = await runs.find(id);
    return record && { owner: record.owner, view: runView(record) };
  };
  let turns: TurnWritesRepository;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    runs = new RunRepository(db);
    turns = new TurnWritesRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const run = async (id: string, status: string, writtenMinutesAgo: number) => {
    await turns.startTurn({
      id,
      session_id: null as never,
      owner: '',
      agent: 'default',
      mode: 'react',
      input: 'hi',
    });
    const at = new Date(Date.now() - writtenMinutesAgo * 60_000);
    await db.$executeRaw`UPDATE "Run" SET "status" = ${status}, "updated_at" = ${at} WHERE "id" = ${id}`;
  };

  it('fails runs left running past any live run’s deadline, and only those', async () => {
    await run('orphan', 'running', 10);
    await run('live', 'running', 4); // within the 5-minute run timeout (+1 minute of clock slack)
    await run('paused', 'awaiting_approval', 60);
    await run('done', 'completed', 60);
    const sweeper = new StaleRunSweeper(runs, config, logger);

    expect(await sweeper.sweep()).toBe(1);
    expect((await viewOf('orphan'))?.view).toMatchObject({
      status: 'failed',
      finish_reason: 'error',
      error: STALE_RUN_ERROR,
    });
    expect((await viewOf('orphan'))?.view.finished_at).not.toBeNull();
    for (const [id, status] of [
      ['live', 'running'],
      ['paused', 'awaiting_approval'],
      ['done', 'completed'],
    ])
      expect((await viewOf(id))?.view.status).toBe(status);
    expect(warnings).toContain('runs left running by a stopped executor marked failed');
    expect(await sweeper.sweep()).toBe(0);
  });
});
