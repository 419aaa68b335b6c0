import type BetterSqlite3 from 'better-sqlite3';
import {
  chunkOf,
  expansionOf,
  type MemoryExpansion,
  type MemoryRef,
  type MemoryScope,
  type MemorySegment,
  type MemoryStore,
  rankByBm25,
} from '@app/agent-core/portable';
import type { MemoryChunk, MemorySegmentType } from '@app/contracts/portable';
import { loadSqliteDriver } from '../sqlite/sqlite-driver';

/**
 * Segments with all the words, and with any, a search ranks: the newest in scope of each, as the
 * platform's store does, so its cost stays flat however much is stored.
 */
const CANDIDATES = 100;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agent_memory (
  id INTEGER PRIMARY KEY,
  principal TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  run_id TEXT NOT NULL,
  iteration_index INTEGER NOT NULL,
  segment_index INTEGER NOT NULL,
  segment_type TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (run_id, iteration_index, segment_index)
);
CREATE VIRTUAL TABLE IF NOT EXISTS agent_memory_fts USING fts5(
  content, content='agent_memory', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS agent_memory_indexed AFTER INSERT ON agent_memory BEGIN
  INSERT INTO agent_memory_fts (rowid, content) VALUES (new.id, new.content);
END;`;

interface Row {
  principal: string;
  session_id: string;
  agent: string;
  run_id: string;
  iteration_index: number;
  segment_index: number;
  segment_type: string;
  content: string;
  created_at: string;
}

const COLUMNS =
  'm.principal, m.session_id, m.agent, m.run_id, m.iteration_index, m.segment_index, m.segment_type, m.content, m.created_at';

/**
 * Long-term memory in one SQLite file (better-sqlite3, an optional peer dependency): a table of
 * segments and its FTS5 index, created on open. FTS5 finds the newest candidates in scope with any
 * of the words, `rankByBm25` ranks them, as the platform's own store does.
 */
export class SqliteMemoryStore implements MemoryStore {
  private readonly insert: (segments: readonly MemorySegment[]) => void;

  private constructor(private readonly db: BetterSqlite3.Database) {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    const insert = db.prepare(
      `INSERT INTO agent_memory (principal, session_id, agent, run_id, iteration_index, segment_index, segment_type, content, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.insert = db.transaction((segments: readonly MemorySegment[]) => {
      for (const s of segments)
        insert.run(
          s.principal,
          s.sessionId,
          s.agent,
          s.runId,
          s.iterationIndex,
          s.segmentIndex,
          s.type,
          s.content,
          s.at.toISOString(),
        );
    });
  }

  /** Opens (or creates) the file; throws a clear error when better-sqlite3 is not installed. */
  static async open(path: string): Promise<SqliteMemoryStore> {
    const Database = await loadSqliteDriver('SQLite memory stores');
    return new SqliteMemoryStore(new Database(path));
  }

  async append(segments: readonly MemorySegment[]): Promise<void> {
    this.insert(segments);
  }

  async search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]> {
    if (terms.length === 0) return [];
    // Each word a quoted string: no operator of FTS5's query language comes from the caller.
    const quoted = terms.map((term) => `"${term.replaceAll('"', '""')}"`);
    const matches = terms.length > 1 ? [quoted.join(' AND '), quoted.join(' OR ')] : quoted;
    const { where, params } = inScope(scope);
    const newest = `SELECT id FROM (SELECT m.id FROM agent_memory_fts f JOIN agent_memory m ON m.id = f.rowid
      WHERE agent_memory_fts MATCH ? AND ${where} ORDER BY m.id DESC LIMIT ${CANDIDATES})`;
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM agent_memory m WHERE m.id IN (${matches.map(() => newest).join(' UNION ')})`,
      )
      .all(...matches.flatMap((match) => [match, ...params])) as Row[];
    return rankByBm25(terms, rows.map(segmentOf))
      .slice(0, limit)
      .map(({ item, relevance }) => chunkOf(item, relevance));
  }

  async expand(scope: MemoryScope, ref: MemoryRef, window: number): Promise<MemoryExpansion | undefined> {
    const { where, params } = inScope(scope);
    const anchor = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM agent_memory m
         WHERE m.run_id = ? AND m.iteration_index = ? AND m.segment_index = ? AND ${where}`,
      )
      .get(ref.runId, ref.iterationIndex, ref.segmentIndex, ...params) as Row | undefined;
    if (!anchor) return undefined;
    // The run's segments all share the anchor's owners: once the anchor is in scope, so is its run.
    const run = this.db
      .prepare(`SELECT ${COLUMNS} FROM agent_memory m WHERE m.run_id = ?`)
      .all(ref.runId) as Row[];
    return expansionOf(segmentOf(anchor), run.map(segmentOf), window);
  }

  close(): void {
    this.db.close();
  }
}

/** Long-term memory in a SQLite file (created when missing); needs the better-sqlite3 package. */
export function sqliteMemory(path: string): Promise<SqliteMemoryStore> {
  return SqliteMemoryStore.open(path);
}

function inScope(scope: MemoryScope): { where: string; params: string[] } {
  const clauses = ['m.principal = ?'];
  const params = [scope.principal];
  for (const [column, value] of [
    ['session_id', scope.sessionId],
    ['agent', scope.agent],
  ] as const) {
    if (!value) continue;
    clauses.push(`m.${column} = ?`);
    params.push(value);
  }
  return { where: clauses.join(' AND '), params };
}

function segmentOf(row: Row): MemorySegment {
  return {
    principal: row.principal,
    sessionId: row.session_id,
    agent: row.agent,
    runId: row.run_id,
    iterationIndex: row.iteration_index,
    segmentIndex: row.segment_index,
    type: row.segment_type as MemorySegmentType,
    content: row.content,
    at: new Date(row.created_at),
  };
}
