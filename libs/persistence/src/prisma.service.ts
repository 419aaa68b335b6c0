import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { retry } from '@app/retry';
import type { PrismaClient as SqliteClient } from './generated/sqlite/client';
import { type DatabaseProvider, providerOf, sqlitePath } from './migrations/database-url';
import { migrationNames, prismaDir } from './migrations/migrations-dir';

/**
 * The two generated clients share one model, so repositories are written against one type.
 * (Prisma ties a client to its provider; both are generated from prisma/models.prisma.)
 */
export type Db = SqliteClient;

export class DatabaseNotMigratedError extends Error {
  constructor(pending: string[]) {
    super(
      `the database is not migrated (${pending.length} pending: ${pending.join(', ')}); run 'npm run db:migrate' first`,
    );
    this.name = 'DatabaseNotMigratedError';
  }
}

/** Loads only the chosen database's generated client and driver: each costs memory. */
export async function createDb(url: string): Promise<{ db: Db; provider: DatabaseProvider }> {
  const provider = providerOf(url);
  if (provider === 'postgresql') {
    const [{ PrismaClient }, { PrismaPg }, { PatientPool }] = await Promise.all([
      import('./generated/postgresql/client.js'),
      import('@prisma/adapter-pg'),
      import('./patient-pool.js'),
    ]);
    const db = new PrismaClient({
      // the client's disconnect ends the pool, as it ends one of its own
      adapter: new PrismaPg(new PatientPool({ connectionString: url, max: 10 }), {
        disposeExternalPool: true,
      }),
    }) as unknown as Db;
    return { db, provider };
  }
  const [{ PrismaClient }, { PrismaBetterSqlite3 }] = await Promise.all([
    import('./generated/sqlite/client.js'),
    import('@prisma/adapter-better-sqlite3'),
  ]);
  const file = sqlitePath(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 5_000 }) });
  return { db, provider };
}

/** Connects and refuses to go on when a committed migration has not been applied. */
export async function connectMigrated(
  url: string,
  root = process.cwd(),
): Promise<{ db: Db; provider: DatabaseProvider }> {
  const { db, provider } = await createDb(url);
  await db.$connect();
  if (provider === 'sqlite') await useWal(db);
  const pending = await pendingMigrations(db, provider, root);
  if (pending.length > 0) {
    await db.$disconnect();
    throw new DatabaseNotMigratedError(pending);
  }
  return { db, provider };
}

/**
 * WAL lets the services read while one writes. Switching needs a moment alone with the file, and
 * SQLite answers SQLITE_BUSY at once (no busy wait) when several services start together: retry.
 */
async function useWal(db: Db): Promise<void> {
  await db.$queryRawUnsafe('PRAGMA busy_timeout = 5000');
  await retry(
    async () => {
      const [row] = await db.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
      if (row?.journal_mode !== 'wal') await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    },
    {
      policy: { firstMs: 20, maxMs: 20, factor: 1, jitterMs: 80 },
      retryable: (err) => /SQLITE_BUSY|database is locked/.test(String((err as Error)?.message)),
      deadline: Date.now() + 5_000,
    },
  );
}

export async function pendingMigrations(
  db: Db,
  provider: DatabaseProvider,
  root = process.cwd(),
): Promise<string[]> {
  const committed = migrationNames(prismaDir(provider, root));
  let applied: string[] = [];
  try {
    const rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    applied = rows.map((r) => r.migration_name);
  } catch {
    // no migrations table: nothing applied yet
  }
  return committed.filter((name) => !applied.includes(name));
}
