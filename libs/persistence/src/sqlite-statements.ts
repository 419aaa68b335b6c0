/**
 * A prepared-statement cache for Prisma's better-sqlite3 adapter, which prepares every query
 * afresh (a fifth of a small transaction's cost). The adapter only ever calls
 * `prepare(sql).run()` and `prepare(sql).bind(args)` followed by `reader`, `columns()`, `run()` or
 * `raw().all()`; a cached statement answers those with the arguments passed at each call instead
 * of bound once (better-sqlite3 binds a statement only once).
 */

interface Statement {
  readonly reader: boolean;
  columns(): unknown[];
  raw(toggle: boolean): Statement;
  all(args: unknown[]): unknown[];
  run(args?: unknown[]): unknown;
}

interface Connection {
  prepare(sql: string): Statement;
}

const MAX_STATEMENTS = 200;

/** Makes `connection` reuse its prepared statements (wired in by `createDb`). */
export function cacheStatements(connection: Connection, max = MAX_STATEMENTS): void {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, Statement>();
  connection.prepare = (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return reusable(statement);
  };
}

function reusable(statement: Statement): Statement & { bind(args: unknown[]): Statement } {
  const withArgs = (args: unknown[]): Statement => ({
    reader: statement.reader,
    columns: () => statement.columns(),
    raw: () => ({ ...withArgs(args), all: () => statement.raw(true).all(args) }),
    all: () => statement.raw(false).all(args),
    run: () => statement.run(args),
  });
  return { ...withArgs([]), bind: withArgs };
}
