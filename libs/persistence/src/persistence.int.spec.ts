import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMigrated,
  createDb,
  type Db,
  DatabaseNotMigratedError,
  Migrator,
  sqlitePath,
} from '@app/persistence';
import { DatabaseSync } from 'node:sqlite';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freshPostgresDatabase, freshSqliteUrl, REPO_ROOT } from '@app/testing';

const run = promisify(execFile);

const databases = [
  { name: 'SQLite', create: async () => ({ url: freshSqliteUrl(), drop: async () => undefined }) },
  { name: 'PostgreSQL', create: freshPostgresDatabase },
];

describe.each(databases)('persistence on $name', ({ create }) => {
  let url: string;
  let drop: () => Promise<void>;
  let db: Db;

  beforeAll(async () => {
    ({ url, drop } = await create());
  });
  afterAll(async () => {
    await db?.$disconnect();
    await drop();
  });

  it('refuses an unmigrated database, naming the command to run', async () => {
    const error = await connectMigrated(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseNotMigratedError);
    expect((error as Error).message).toMatch(/npm run db:migrate/);
  });

  it('applies the committed migrations to an empty database, then finds nothing to do', async () => {
    const deployOnce = async () => {
      const migrator = await Migrator.open(url);
      try {
        return await migrator.deploy();
      } finally {
        await migrator.close();
      }
    };
    expect((await deployOnce()).length).toBeGreaterThan(0);
    expect(await deployOnce()).toEqual([]);
    db = (await connectMigrated(url)).db;
  });

  it('stores and reads back every kind of column, JSON included', async () => {
    await db.session.create({ data: { id: 's1', owner: 'p1' } });
    await db.message.create({
      data: { id: 'm1', session_id: 's1', seq: 1, role: 'user', content: 'héllo <&> 🌍' },
    });
    await db.run.create({
      data: {
        id: 'r1',
        session_id: 's1',
        agent: 'default',
        input: 'hi',
        trace: [{ step: 1, thought: 'x' }],
        used_tools: { a: { count: 1 } },
      },
    });
    const run = await db.run.findUniqueOrThrow({ where: { id: 'r1' } });
    expect(run.trace).toEqual([{ step: 1, thought: 'x' }]);
    expect(run.status).toBe('queued');
    const message = await db.message.findFirstOrThrow({ where: { session_id: 's1' } });
    expect(message.content).toBe('héllo <&> 🌍');
  });

  it('records a task fire once per (task, scheduled time)', async () => {
    const scheduled_at = new Date('2026-01-01T09:00:00Z');
    const fire = { task_kind: 'cron', task_id: 't1', scheduled_at, status: 'running' };
    await db.taskFire.create({ data: { id: 'f1', ...fire } });
    await expect(db.taskFire.create({ data: { id: 'f2', ...fire } })).rejects.toThrow();
    expect(await db.taskFire.count({ where: { task_id: 't1' } })).toBe(1);
  });

  it('keeps task names unique', async () => {
    const task = { name: 'remind', run_at: new Date(), function_name: 'send_message' };
    await db.delayTask.create({ data: { id: 'd1', ...task } });
    await expect(db.delayTask.create({ data: { id: 'd2', ...task } })).rejects.toThrow();
  });
});

describe('SQLite shared by several services', () => {
  it('lets service processes that start together all connect, in WAL mode', async () => {
    const url = freshSqliteUrl();
    const migrator = await Migrator.open(url);
    await migrator.deploy();
    await migrator.close();
    const script = `require('./dist/libs/persistence/src').connectMigrated(process.argv[1])
      .then(({ db }) => db.$queryRawUnsafe('PRAGMA journal_mode').then((r) => { console.log(r[0].journal_mode); return db.$disconnect(); }))
      .catch((err) => { console.error(err.message); process.exit(1); });`;
    // Another service holds a write lock while these start, as the gateway does when it stores a key.
    const writer = new DatabaseSync(sqlitePath(url));
    writer.exec('BEGIN IMMEDIATE');
    setTimeout(() => writer.exec('COMMIT'), 700);
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => run(process.execPath, ['-e', script, url], { cwd: REPO_ROOT })),
    );
    writer.close();
    expect(runs.map((r) => r.stdout.trim())).toEqual(Array(8).fill('wal'));
  });
});

describe('createDb', () => {
  it('picks the provider from the URL scheme', async () => {
    expect((await createDb('file:/tmp/x.db')).provider).toBe('sqlite');
    expect((await createDb('postgresql://u@h/db')).provider).toBe('postgresql');
  });
});
