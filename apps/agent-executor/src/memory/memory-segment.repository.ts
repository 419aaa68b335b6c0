import { Inject, Injectable } from '@nestjs/common';
import type { MemoryExpansion, MemoryRef, MemoryScope, MemorySegment, MemoryStore } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import type { MemoryChunk, MemorySegmentType } from '@app/contracts';
import {
  DB,
  type Db,
  providerOf,
  type Sql,
  sql,
  sqlJoin,
  SQL_WRITER,
  type SqlWriter,
} from '@app/persistence';
import { PLATFORM_CONFIG } from '@app/runtime';

interface ChunkRow {
  content: string;
  relevance: number | null;
  run_id: string;
  iteration_index: number | bigint;
  segment_index: number | bigint;
  segment_type: string;
  created_at: Date | string;
  session_id: string;
  agent: string;
}

/** Rows per INSERT: well under SQLite's 32,766 bound parameters (9 a row). */
const INSERT_BATCH = 500;
const CHUNK_COLUMNS = sql`s."content", s."run_id", s."iteration_index", s."segment_index", s."segment_type", s."created_at", s."session_id", s."agent"`;

/**
 * MemorySegment rows and their full-text index: SQLite's FTS5 table ranked by bm25, PostgreSQL's
 * GIN index over `to_tsvector('simple', content)` ranked by ts_rank (both written in the
 * migrations). Every read is bounded by a `MemoryScope`. Writes go through the raw writer: one
 * statement for a run's segments, off the turn's reply path.
 */
@Injectable()
export class MemorySegmentRepository implements MemoryStore {
  private readonly postgres: boolean;

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
    @Inject(PLATFORM_CONFIG) config: Pick<PlatformConfig, 'database'>,
  ) {
    this.postgres = providerOf(config.database.url) === 'postgresql';
  }

  /** Stores segments; a segment already stored (the same anchor) is kept as it was. */
  async append(segments: readonly MemorySegment[]): Promise<void> {
    const statements: Sql[] = [];
    for (let start = 0; start < segments.length; start += INSERT_BATCH) {
      const rows = segments
        .slice(start, start + INSERT_BATCH)
        .map(
          (s) =>
            sql`(${s.principal}, ${s.sessionId}, ${s.agent}, ${s.runId}, ${s.iterationIndex}, ${s.segmentIndex}, ${s.type}, ${s.content}, ${s.at})`,
        );
      statements.push(
        sql`INSERT INTO "MemorySegment" ("principal", "session_id", "agent", "run_id", "iteration_index", "segment_index", "segment_type", "content", "created_at")
          VALUES ${sqlJoin(rows)} ON CONFLICT DO NOTHING`,
      );
    }
    if (statements.length > 0) await this.writer.transaction(statements);
  }

  async search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]> {
    if (terms.length === 0) return [];
    const rows = this.postgres
      ? await this.db.$queryRaw<ChunkRow[]>(sql`
          SELECT ${CHUNK_COLUMNS}, ts_rank(to_tsvector('simple'::regconfig, s."content"), q) AS relevance
          FROM "MemorySegment" s, to_tsquery('simple'::regconfig, ${terms.join(' | ')}) q
          WHERE to_tsvector('simple'::regconfig, s."content") @@ q AND ${inScope(scope)}
          ORDER BY relevance DESC, s."id" DESC LIMIT ${limit}`)
      : await this.db.$queryRaw<ChunkRow[]>(sql`
          SELECT ${CHUNK_COLUMNS}, -bm25("MemorySegmentFts") AS relevance
          FROM "MemorySegmentFts" JOIN "MemorySegment" s ON s."id" = "MemorySegmentFts".rowid
          WHERE "MemorySegmentFts" MATCH ${ftsExpression(terms)} AND ${inScope(scope)}
          ORDER BY bm25("MemorySegmentFts"), s."id" DESC LIMIT ${limit}`);
    return rows.map(toChunk);
  }

  async expand(scope: MemoryScope, ref: MemoryRef, window: number): Promise<MemoryExpansion | undefined> {
    const at = sql`s."run_id" = ${ref.runId}`;
    const position = sql`(s."iteration_index", s."segment_index")`;
    const anchor = sql`(${ref.iterationIndex}, ${ref.segmentIndex})`;
    const [found] = await this.db.$queryRaw<ChunkRow[]>(sql`
      SELECT ${CHUNK_COLUMNS} FROM "MemorySegment" s
      WHERE ${at} AND s."iteration_index" = ${ref.iterationIndex} AND s."segment_index" = ${ref.segmentIndex} AND ${inScope(scope)}`);
    if (!found) return undefined;
    // The run's segments all share the anchor's owners: once the anchor is in scope, so is its run.
    const [before, after, goal] = await Promise.all([
      this.db.$queryRaw<ChunkRow[]>(sql`
        SELECT ${CHUNK_COLUMNS} FROM "MemorySegment" s WHERE ${at} AND ${position} < ${anchor}
        ORDER BY s."iteration_index" DESC, s."segment_index" DESC LIMIT ${window}`),
      this.db.$queryRaw<ChunkRow[]>(sql`
        SELECT ${CHUNK_COLUMNS} FROM "MemorySegment" s WHERE ${at} AND ${position} > ${anchor}
        ORDER BY s."iteration_index", s."segment_index" LIMIT ${window}`),
      this.db.$queryRaw<{ content: string }[]>(sql`
        SELECT s."content" FROM "MemorySegment" s
        WHERE ${at} AND s."segment_type" = 'user_message' ORDER BY s."iteration_index", s."segment_index" LIMIT 1`),
    ]);
    return {
      goal: goal[0]?.content ?? null,
      before: before.reverse().map(toChunk),
      chunk: toChunk(found),
      after: after.map(toChunk),
    };
  }

  /** Forgets the principal's segments: all of them, or one session's, or one run's. */
  async forget(principal: string, only: { sessionId?: string; runId?: string } = {}): Promise<number> {
    const [deleted] = await this.writer.transaction([
      sql`DELETE FROM "MemorySegment" WHERE "principal" = ${principal}
        ${only.sessionId ? sql`AND "session_id" = ${only.sessionId}` : sql``}
        ${only.runId ? sql`AND "run_id" = ${only.runId}` : sql``}`,
    ]);
    return deleted;
  }
}

function inScope(scope: MemoryScope): Sql {
  return sql`s."principal" = ${scope.principal}
    ${scope.sessionId ? sql`AND s."session_id" = ${scope.sessionId}` : sql``}
    ${scope.agent ? sql`AND s."agent" = ${scope.agent}` : sql``}`;
}

/** Plain words (`memoryTerms`) as an FTS5 expression: each a quoted string, any of them matching. */
function ftsExpression(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

function toChunk(row: ChunkRow): MemoryChunk {
  return {
    content: row.content,
    relevance: Math.round(Number(row.relevance ?? 0) * 10_000) / 10_000,
    anchor: {
      run_id: row.run_id,
      iteration_index: Number(row.iteration_index),
      segment_index: Number(row.segment_index),
      segment_type: row.segment_type as MemorySegmentType,
      timestamp: new Date(row.created_at).toISOString(),
    },
    session_id: row.session_id,
    agent: row.agent,
  };
}
