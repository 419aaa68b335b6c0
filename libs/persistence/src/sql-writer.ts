import type { Statement } from 'better-sqlite3';
import type { Sql } from '@prisma/client/runtime/client';
import { retry } from '@app/retry';
import { providerOf, sqlitePath } from './migrations/database-url';
import type { Db } from './prisma.service';

/**
 * Runs raw statements as one transaction on a connection of its own (better-sqlite3 on the same
 * SQLite file, or a pg pool), for the writes every chat turn makes: going through Prisma's client,
 * its two transactions cost the executor about a millisecond more CPU a turn (docs/benchmarks.md).
 * Values are stored as Prisma stores them, so its models read the rows back unchanged.
 */
export interface SqlWriter {
  /** Runs the statements in order, all or none; the rows each one changed. */
  transaction(statements: Sql[]): Promise<number[]>;
  /**
   * As `transaction`, when the first statement (a conditional update: a fence) changes a row;
   * otherwise nothing is written and the answer is `null`.
   */
  fenced(statements: Sql[]): Promise<number[] | null>;
  /**
   * Reads on the writer's connection: for what only it can see, e.g. SQLite's vector tables (the
   * connection has sqlite-vec loaded; Prisma's has not).
   */
  query<T>(statement: Sql): Promise<T[]>;
  close(): Promise<void>;
}

/** Thrown inside a transaction to roll it back when its fence changed no row. */
class FenceLost extends Error {}

const fenceHeld = (changed: number) => {
  if (changed === 0) throw new FenceLost();
};

/** The rows each statement changed, or null when a fence rolled the transaction back. */
async function unlessFenceLost(write: Promise<number[]>): Promise<number[] | null> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof FenceLost) return null;
    throw err;
  }
}

export type { Sql };

/**
 * The writer for `url`, connecting at its first write (most services never write this way);
 * through `db` (Prisma) for an in-memory SQLite database no other connection can see.
 */
export function openSqlWriter(url: string, db: Db): SqlWriter {
  if (providerOf(url) === 'sqlite' && sqlitePath(url) === ':memory:') return prismaWriter(db);
  let opened: Promise<SqlWriter> | undefined;
  const connect = () => (providerOf(url) === 'postgresql' ? pgWriter(url) : sqliteWriter(sqlitePath(url)));
  const open = () =>
    (opened ??= connect().catch((err: unknown) => {
      opened = undefined;
      throw err;
    }));
  return {
    transaction: async (statements) => (await open()).transaction(statements),
    fenced: async (statements) => (await open()).fenced(statements),
    query: async <T>(statement: Sql) => (await open()).query<T>(statement),
    close: async () => {
      const writer = await opened?.catch(() => undefined);
      await writer?.close();
    },
  };
}

/** Always a Prisma transaction, even for one statement, as the driver writers are. */
export function prismaWriter(db: Db): SqlWriter {
  return {
    transaction: (statements) => db.$transaction(statements.map((statement) => db.$executeRaw(statement))),
    fenced: (statements) =>
      unlessFenceLost(
        db.$transaction(async (tx) => {
          const changed: number[] = [];
          for (const statement of statements) {
            changed.push(await tx.$executeRaw(statement));
            if (changed.length === 1) fenceHeld(changed[0]);
          }
          return changed;
        }),
      ),
    query: <T>(statement: Sql) => db.$queryRaw<T[]>(statement),
    close: async () => undefined,
  };
}

const BUSY_RETRY_MS = 5_000;
const BUSY_RETRY = { firstMs: 1, maxMs: 1, factor: 1, jitterMs: 4 };
const MAX_STATEMENTS = 100;

/**
 * better-sqlite3 is synchronous: a transaction begun and committed in one go cannot interleave with
 * anything in this process. It must not wait for the file's write lock synchronously either (the
 * holder may be a Prisma transaction of this very process, waiting for the event loop), so the
 * connection has no busy timeout and a busy write is retried after a pause.
 */
async function sqliteWriter(file: string): Promise<SqlWriter> {
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(file, { timeout: 0 });
  if (conn.pragma('journal_mode', { simple: true }) !== 'wal') conn.pragma('journal_mode = WAL');
  conn.pragma('foreign_keys = ON');
  (await import('sqlite-vec')).load(conn);
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
      statement = conn.prepare<unknown[]>(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const writeAll = conn.transaction((batch: Sql[], fence: boolean) =>
    batch.map((s, i) => {
      const changed = Number(prepared(s.sql).run(s.values.map(sqliteValue)).changes);
      if (fence && i === 0) fenceHeld(changed);
      return changed;
    }),
  );
  const write = async (batch: Sql[], fence: boolean) => {
    try {
      return writeAll.immediate(batch, fence);
    } catch (err) {
      // another process holds the file's write lock: asked again every few milliseconds
      if (!busy(err)) throw err;
      return retry(async () => writeAll.immediate(batch, fence), {
        policy: BUSY_RETRY,
        retryable: busy,
        deadline: Date.now() + BUSY_RETRY_MS,
      });
    }
  };
  return {
    transaction: (batch) => write(batch, false),
    fenced: (batch) => unlessFenceLost(write(batch, true)),
    query: async <T>(statement: Sql) => prepared(statement.sql).all(statement.values.map(sqliteValue)) as T[],
    close: async () => {
      if (conn.open) conn.close();
    },
  };
}

function busy(err: unknown): boolean {
  return /^SQLITE_BUSY/.test(String((err as { code?: unknown })?.code));
}

async function pgWriter(url: string): Promise<SqlWriter> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle connection the server ends (a restart, an administrator) leaves the pool, and the next
  // write opens another; unheard, the pool's 'error' event would bring the whole process down.
  pool.on('error', () => undefined);
  const write = async (batch: Sql[], fence: boolean) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const changed: number[] = [];
        for (const s of batch) {
          changed.push((await client.query(s.text, s.values.map(pgValue))).rowCount ?? 0);
          if (fence && changed.length === 1) fenceHeld(changed[0]);
        }
        await client.query('COMMIT');
        return changed;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        throw err;
      }
    } finally {
      client.release(broken);
    }
  };
  return {
    transaction: (batch) => write(batch, false),
    fenced: (batch) => unlessFenceLost(write(batch, true)),
    query: async <T>(statement: Sql) =>
      (await pool.query(statement.text, statement.values.map(pgValue))).rows as T[],
    close: () => pool.end(),
  };
}

/** As Prisma's better-sqlite3 adapter stores them (its default `iso8601` timestamps). */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return sqliteTime(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value ?? null;
}

/** The last instant written, kept: a turn's statements stamp the same `now` in several columns. */
let lastTime = { at: Number.NaN, text: '' };

function sqliteTime(date: Date): string {
  const at = date.getTime();
  // an invalid date (NaN) is never kept, so toISOString throws for it as before
  if (at !== lastTime.at) lastTime = { at, text: date.toISOString().replace('Z', '+00:00') };
  return lastTime.text;
}

/** As Prisma's pg adapter sends them: `timestamp(3)` columns hold UTC without a zone. */
function pgValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().slice(0, -1).replace('T', ' ');
  return value ?? null;
}
