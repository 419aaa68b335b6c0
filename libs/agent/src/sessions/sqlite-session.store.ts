import type BetterSqlite3 from 'better-sqlite3';

const SCHEMA = `CREATE TABLE IF NOT EXISTS agent_session_messages (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
)`;

/**
 * Sessions in one SQLite file (better-sqlite3, an optional peer dependency): one table, created
 * on open, one row per message in order. Writes are synchronous and each append is one
 * transaction, so a session never holds half a turn.
 */
export class SqliteSessionStore<M> {
  private readonly selectAll: BetterSqlite3.Statement<[string], { message: string }>;
  private readonly lastSeq: BetterSqlite3.Statement<[string], { seq: number | null }>;
  private readonly insert: BetterSqlite3.Statement<[string, number, string]>;
  private readonly appendAll: (sessionId: string, messages: readonly M[]) => void;

  private constructor(private readonly db: BetterSqlite3.Database) {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    this.selectAll = db.prepare(
      'SELECT message FROM agent_session_messages WHERE session_id = ? ORDER BY seq',
    );
    this.lastSeq = db.prepare('SELECT MAX(seq) AS seq FROM agent_session_messages WHERE session_id = ?');
    this.insert = db.prepare(
      'INSERT INTO agent_session_messages (session_id, seq, message) VALUES (?, ?, ?)',
    );
    this.appendAll = db.transaction((sessionId: string, messages: readonly M[]) => {
      let seq = this.lastSeq.get(sessionId)?.seq ?? -1;
      for (const message of messages) this.insert.run(sessionId, ++seq, JSON.stringify(message));
    });
  }

  /** Opens (or creates) the file; throws a clear error when better-sqlite3 is not installed. */
  static async open<M>(path: string): Promise<SqliteSessionStore<M>> {
    const Database = await loadDriver();
    return new SqliteSessionStore<M>(new Database(path));
  }

  async load(sessionId: string): Promise<M[]> {
    return this.selectAll.all(sessionId).map((row) => JSON.parse(row.message) as M);
  }

  async append(sessionId: string, messages: readonly M[]): Promise<void> {
    if (messages.length > 0) this.appendAll(sessionId, messages);
  }

  close(): void {
    this.db.close();
  }
}

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    const loaded = (await import('better-sqlite3')) as { default?: typeof BetterSqlite3 };
    return loaded.default ?? (loaded as unknown as typeof BetterSqlite3);
  } catch (err) {
    throw new Error(
      `SQLite sessions need the better-sqlite3 package (npm install better-sqlite3): ${(err as Error).message}`,
    );
  }
}
