import type { Sql } from '@prisma/client/runtime/client';
import type { Db } from './prisma.service';

/**
 * Runs raw statements as one transaction straight on the connection Prisma's driver adapter holds
 * (better-sqlite3 or a pg pool), for the writes every chat turn makes: going through Prisma's
 * client, its two transactions cost the executor 1.1 to 1.5 ms more CPU a turn (chat bench, A/B)
 * around ~0.2 ms of SQLite work.
 */
export interface SqlWriter {
  /** Runs the statements in order, all or none; the rows each one changed. */
  transaction(statements: Sql[]): Promise<number[]>;
}

export type { Sql };

/** The driver side of better-sqlite3's `Database`, as far as writes need it. */
export interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): { bind(args: unknown[]): { run(): { changes: number | bigint } }; run(): unknown };
}

/** The driver side of pg's `Pool`, as far as writes need it. */
export interface PgPool {
  readonly ending: boolean;
  connect(): Promise<{
    query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
    release(destroy?: boolean): void;
  }>;
}

const writers = new WeakMap<object, SqlWriter>();

/** The writer of `db`'s own connection; through Prisma when `db` was not made by `createDb`. */
export function sqlWriter(db: Db): SqlWriter {
  return writers.get(db) ?? prismaWriter(db);
}

export function attachWriter(db: Db, writer: SqlWriter): void {
  writers.set(db, writer);
}

/**
 * Always a Prisma transaction, even for one statement: Prisma's better-sqlite3 adapter runs a
 * query outside one on the shared connection at once, inside whatever transaction is open there.
 */
export function prismaWriter(db: Db): SqlWriter {
  return {
    transaction: (statements) => db.$transaction(statements.map((statement) => db.$executeRaw(statement))),
  };
}

/**
 * better-sqlite3 is synchronous, so a transaction begun and committed in one go cannot interleave
 * with anything. Prisma's own transactions stay open across awaits on the same connection: while
 * one is open, the statements queue behind it through Prisma instead.
 */
export function sqliteWriter(connection: () => SqliteConnection | undefined, fallback: SqlWriter): SqlWriter {
  return {
    transaction: async (statements) => {
      const conn = connection();
      if (!conn?.open || conn.inTransaction) return fallback.transaction(statements);
      const run = (statement: Sql) =>
        Number(conn.prepare(statement.sql).bind(statement.values.map(sqliteValue)).run().changes);
      if (statements.length === 1) return [run(statements[0])];
      conn.prepare('BEGIN').run();
      try {
        const changed = statements.map(run);
        conn.prepare('COMMIT').run();
        return changed;
      } catch (err) {
        if (conn.inTransaction) conn.prepare('ROLLBACK').run();
        throw err;
      }
    },
  };
}

export function pgWriter(pool: () => PgPool | undefined, fallback: SqlWriter): SqlWriter {
  return {
    transaction: async (statements) => {
      const current = pool();
      if (!current || current.ending) return fallback.transaction(statements);
      const client = await current.connect();
      let broken = false;
      try {
        const run = async (statement: Sql) =>
          (await client.query(statement.text, statement.values.map(pgValue))).rowCount ?? 0;
        if (statements.length === 1) return [await run(statements[0])];
        await client.query('BEGIN');
        try {
          const changed: number[] = [];
          for (const statement of statements) changed.push(await run(statement));
          await client.query('COMMIT');
          return changed;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => (broken = true));
          throw err;
        }
      } finally {
        client.release(broken);
      }
    },
  };
}

/** As Prisma's better-sqlite3 adapter stores them (its default `iso8601` timestamps). */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value ?? null;
}

/** As Prisma's pg adapter sends them: `timestamp(3)` columns hold UTC without a zone. */
function pgValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().slice(0, -1).replace('T', ' ');
  return value ?? null;
}
