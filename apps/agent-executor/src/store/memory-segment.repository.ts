import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  chunkOf,
  type MemoryExpansion,
  type MemoryRef,
  type MemoryScope,
  type MemorySegment,
  type MemoryStore,
  rankByBm25,
} from '@app/agent-core';
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

/** Whether a segment must have all the words of a search, or any. */
type Mode = 'all' | 'any';

interface ChunkRow {
  id?: number | bigint;
  content: string;
  relevance?: number;
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
/** Segments with all the words, and with any, a search ranks: the newest within the scope (see `search`). */
const CANDIDATES = 100;
const CHUNK_COLUMNS = sql`s."content", s."run_id", s."iteration_index", s."segment_index", s."segment_type", s."created_at", s."session_id", s."agent"`;

/**
 * MemorySegment rows and their full-text index (written in the migrations): SQLite's FTS5 table,
 * PostgreSQL's GIN-indexed tsvectors. The databases find the candidates, `rankByBm25` ranks them;
 * every read is bounded by a `MemoryScope`. Writes go through the raw writer: one statement for a
 * run's segments, off the turn's reply path.
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

  /** Stores segments (PostgreSQL: with their search documents); one stored already at its anchor is kept. */
  async append(segments: readonly MemorySegment[]): Promise<void> {
    const statements: Sql[] = [];
    for (let start = 0; start < segments.length; start += INSERT_BATCH) {
      const rows = segments
        .slice(start, start + INSERT_BATCH)
        .map(
          (s) =>
            sql`(${s.principal}, ${s.sessionId}, ${s.agent}, ${s.runId}, ${s.iterationIndex}, ${s.segmentIndex}, ${s.type}, ${s.content}, ${s.at})`,
        );
      const insert = sql`INSERT INTO "MemorySegment" ("principal", "session_id", "agent", "run_id", "iteration_index", "segment_index", "segment_type", "content", "created_at")
        VALUES ${sqlJoin(rows)} ON CONFLICT DO NOTHING`;
      statements.push(this.postgres ? withDocuments(insert) : insert);
    }
    if (statements.length > 0) await this.writer.transaction(statements);
  }

  /**
   * The newest `CANDIDATES` segments in scope with all the words, and as many with any of them,
   * found in one query and ranked together (`rankByBm25`), so a search costs about the same
   * however much the principal has stored; an older memory is still found by the words only it
   * and few others share.
   */
  async search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]> {
    if (terms.length === 0) return [];
    const modes: Mode[] = terms.length > 1 ? ['all', 'any'] : ['any'];
    const rows = await this.db.$queryRaw<ChunkRow[]>(
      this.postgres ? pgCandidates(scope, terms, modes) : sqliteCandidates(scope, terms, modes),
    );
    return rankByBm25(terms, rows)
      .slice(0, limit)
      .map(({ item, relevance }) => toChunk({ ...item, relevance }));
  }

  /** The segments of `ids` that are within the scope, in the order of `ids`. */
  async inScopeByIds(scope: MemoryScope, ids: readonly number[]): Promise<MemoryChunk[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.$queryRaw<ChunkRow[]>(sql`
      SELECT s."id", ${CHUNK_COLUMNS} FROM "MemorySegment" s
      WHERE s."id" IN (${sqlJoin(ids)}) AND ${inScope(scope)}`);
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toChunk(row)] : [];
    });
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

/**
 * FTS5: the scope's owners as phrases of their columns (tokenized as the index tokenizes them),
 * the words, each a quoted string, in `content`. The CROSS JOIN keeps SQLite from walking the
 * principal's whole index instead of looking up the candidates by id.
 */
function sqliteCandidates(scope: MemoryScope, terms: readonly string[], modes: Mode[]): Sql {
  const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const owners = [
    ['principal', scope.principal],
    ['session_id', scope.sessionId],
    ['agent', scope.agent],
  ].flatMap(([column, value]) => {
    const tokens = value?.match(/[\p{L}\p{N}]+/gu);
    return tokens ? [`${column} : ${quoted(tokens.join(' '))}`] : [];
  });
  const newest = (mode: Mode) => {
    const words = `content : (${terms.map(quoted).join(mode === 'all' ? ' AND ' : ' OR ')})`;
    return sql`SELECT id FROM (
      SELECT rowid AS id FROM "MemorySegmentFts" WHERE "MemorySegmentFts" MATCH ${[...owners, words].join(' AND ')}
      ORDER BY rowid DESC LIMIT ${CANDIDATES})`;
  };
  return sql`
    SELECT s."id", ${CHUNK_COLUMNS} FROM (${sqlJoin(modes.map(newest), ' UNION ')}) c
    CROSS JOIN "MemorySegment" s ON s."id" = c.id
    WHERE ${inScope(scope)}`;
}

/**
 * PostgreSQL: the stored documents (the text's lexemes and the owners') against the scope's
 * lexemes and the words.
 */
function pgCandidates(scope: MemoryScope, terms: readonly string[], modes: Mode[]): Sql {
  const owners = [`p${md5(scope.principal)}`];
  if (scope.sessionId) owners.push(`s${md5(scope.sessionId)}`);
  if (scope.agent) owners.push(`a${md5(scope.agent)}`);
  const newest = (mode: Mode) => {
    const words = sql`to_tsquery('simple'::regconfig, ${terms.join(mode === 'all' ? ' & ' : ' | ')})`;
    return sql`(SELECT x."id" FROM "MemorySegmentSearch" x
      WHERE x."document" @@ (${owners.join(' & ')}::tsquery && ${words})
      ORDER BY x."id" DESC LIMIT ${CANDIDATES})`;
  };
  return sql`
    SELECT s."id", ${CHUNK_COLUMNS} FROM (${sqlJoin(modes.map(newest), ' UNION ')}) c
    JOIN "MemorySegment" s ON s."id" = c."id"
    WHERE ${inScope(scope)}`;
}

/** The segments the INSERT stored, and their documents: words and owners' lexemes (see the migration). */
function withDocuments(insert: Sql): Sql {
  return sql`WITH stored AS (${insert} RETURNING "id", "principal", "session_id", "agent", "content")
    INSERT INTO "MemorySegmentSearch" ("id", "document")
    SELECT "id", array_to_tsvector(ARRAY['p' || md5("principal"), 's' || md5("session_id"), 'a' || md5("agent")])
      || to_tsvector('simple'::regconfig, "content") FROM stored`;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** A row as the core's chunk (one mapping, shared with the embedded SDK's stores). */
function toChunk(row: ChunkRow): MemoryChunk {
  const segment: MemorySegment = {
    principal: '',
    sessionId: row.session_id,
    agent: row.agent,
    runId: row.run_id,
    iterationIndex: Number(row.iteration_index),
    segmentIndex: Number(row.segment_index),
    type: row.segment_type as MemorySegmentType,
    content: row.content,
    at: new Date(row.created_at),
  };
  return chunkOf(segment, row.relevance ?? 0);
}
