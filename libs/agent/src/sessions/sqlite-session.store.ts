import type BetterSqlite3 from 'better-sqlite3';
import type { SessionStore, StoredTurnMessage } from '@app/agent-core/portable';
import { loadSqliteDriver } from '../sqlite/sqlite-driver';

const SCHEMA = `CREATE TABLE IF NOT EXISTS agent_sessions (
  session_id TEXT PRIMARY KEY,
  summary TEXT,
  messages TEXT NOT NULL
)`;

interface Row {
  summary: string | null;
  messages: string;
}

/**
 * Sessions in one SQLite file (better-sqlite3, an optional peer dependency): one table, created on
 * open, one row per session holding its summary and its messages in order. Each write is one
 * synchronous transaction, so a session never holds half a turn.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly select: BetterSqlite3.Statement<[string], Row>;
  private readonly upsert: BetterSqlite3.Statement<[string, string | null, string]>;
  private readonly update: (sessionId: string, change: (session: Session) => Session) => void;

  private constructor(private readonly db: BetterSqlite3.Database) {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    this.select = db.prepare('SELECT summary, messages FROM agent_sessions WHERE session_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO agent_sessions (session_id, summary, messages) VALUES (?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET summary = excluded.summary, messages = excluded.messages`,
    );
    this.update = db.transaction((sessionId: string, change: (session: Session) => Session) => {
      const next = change(this.read(sessionId));
      this.upsert.run(sessionId, next.summary, JSON.stringify(next.messages));
    });
  }

  /** Opens (or creates) the file; throws a clear error when better-sqlite3 is not installed. */
  static async open(path: string): Promise<SqliteSessionStore> {
    const Database = await loadSqliteDriver('SQLite sessions');
    return new SqliteSessionStore(new Database(path));
  }

  async load(sessionId: string): Promise<Session> {
    return this.read(sessionId);
  }

  async append(sessionId: string, messages: StoredTurnMessage[]): Promise<void> {
    this.update(sessionId, (s) => ({ summary: s.summary, messages: [...s.messages, ...messages] }));
  }

  /** `folded` are the oldest messages `load` returned: they leave the history for the summary. */
  async saveSummary(sessionId: string, summary: string, folded: StoredTurnMessage[]): Promise<void> {
    this.update(sessionId, (s) => ({ summary, messages: s.messages.slice(folded.length) }));
  }

  close(): void {
    this.db.close();
  }

  private read(sessionId: string): Session {
    const row = this.select.get(sessionId);
    return row
      ? { summary: row.summary, messages: JSON.parse(row.messages) as StoredTurnMessage[] }
      : { summary: null, messages: [] };
  }
}

/** Sessions in a SQLite file (created when missing); needs the better-sqlite3 package. */
export function sqliteSessions(path: string): Promise<SqliteSessionStore> {
  return SqliteSessionStore.open(path);
}

interface Session {
  summary: string | null;
  messages: StoredTurnMessage[];
}
