import type BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3 (an optional peer dependency), or a clear error naming what `what` needs. */
export async function loadSqliteDriver(what: string): Promise<typeof BetterSqlite3> {
  try {
    const loaded = (await import('better-sqlite3')) as { default?: typeof BetterSqlite3 };
    return loaded.default ?? (loaded as unknown as typeof BetterSqlite3);
  } catch (err) {
    throw new Error(
      `${what} need the better-sqlite3 package (npm install better-sqlite3): ${(err as Error).message}`,
    );
  }
}
