import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MemoryScope } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { Logger } from '@app/observability';
import { providerOf, type Sql, sql, sqlRaw, SQL_WRITER, type SqlWriter } from '@app/persistence';
import { PLATFORM_CONFIG } from '@app/runtime';

/** A stored segment still without its vector. */
export interface UnembeddedSegment {
  id: number;
  principal: string;
  session_id: string;
  agent: string;
  content: string;
}

/**
 * Segments' vectors, keyed by the segment's id, with the segment's owners beside each so the
 * nearest-neighbour search itself is bounded by the scope. SQLite: a sqlite-vec `vec0` table (the
 * principal its partition key) on the writer's connection, the only one with the extension loaded.
 * PostgreSQL: a pgvector column where the extension can be created; elsewhere none, and memory is
 * searched by full text only. The tables depend on the configured dimensions, so they are made at
 * boot rather than by a migration.
 */
@Injectable()
export class MemoryVectorRepository implements OnModuleInit {
  private readonly postgres: boolean;
  private readonly dimensions: number;
  private readonly wanted: boolean;
  private ready?: Promise<boolean>;

  constructor(
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
    @Inject(PLATFORM_CONFIG) config: Pick<PlatformConfig, 'database' | 'memory'>,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.postgres = providerOf(config.database.url) === 'postgresql';
    this.dimensions = config.memory.embeddings.dimensions;
    this.wanted = config.memory.embeddings.base_url !== undefined;
  }

  async onModuleInit(): Promise<void> {
    await this.available();
  }

  /** Whether vectors are kept: embeddings configured and the database able to hold them (checked once). */
  available(): Promise<boolean> {
    return (this.ready ??= this.wanted ? this.prepare() : Promise.resolve(false));
  }

  /** The run's segments that have no vector yet. */
  missing(runId: string): Promise<UnembeddedSegment[]> {
    const has = this.postgres
      ? sql`SELECT 1 FROM "MemorySegmentVector" v WHERE v."id" = s."id"`
      : sql`SELECT 1 FROM "MemorySegmentVec" v WHERE v.rowid = s."id"`;
    return this.writer.query<UnembeddedSegment>(sql`
      SELECT s."id", s."principal", s."session_id", s."agent", s."content" FROM "MemorySegment" s
      WHERE s."run_id" = ${runId} AND NOT EXISTS (${has}) ORDER BY s."id"`);
  }

  async store(segments: readonly UnembeddedSegment[], vectors: readonly number[][]): Promise<void> {
    const statements = segments.map((s, i) => {
      const vector = JSON.stringify(vectors[i]);
      return this.postgres
        ? sql`INSERT INTO "MemorySegmentVector" ("id", "principal", "session_id", "agent", "embedding")
            VALUES (${Number(s.id)}, ${s.principal}, ${s.session_id}, ${s.agent}, ${vector}::vector) ON CONFLICT DO NOTHING`
        : sql`INSERT INTO "MemorySegmentVec" (rowid, "principal", "session_id", "agent", "embedding")
            VALUES (${BigInt(s.id)}, ${s.principal}, ${s.session_id}, ${s.agent}, ${vector})`;
    });
    if (statements.length > 0) await this.writer.transaction(statements);
  }

  /** Ids of the `k` segments in scope nearest to `vector` (cosine distance), nearest first. */
  async nearest(scope: MemoryScope, vector: readonly number[], k: number): Promise<number[]> {
    const owners = (column: (name: string) => Sql) =>
      sql`${column('principal')} = ${scope.principal}
        ${scope.sessionId ? sql`AND ${column('session_id')} = ${scope.sessionId}` : sql``}
        ${scope.agent ? sql`AND ${column('agent')} = ${scope.agent}` : sql``}`;
    const json = JSON.stringify(vector);
    const rows = await this.writer.query<{ id: number | bigint }>(
      this.postgres
        ? sql`SELECT v."id" FROM "MemorySegmentVector" v WHERE ${owners((c) => sqlRaw(`v."${c}"`))}
            ORDER BY v."embedding" <=> ${json}::vector LIMIT ${k}`
        : sql`SELECT rowid AS id FROM "MemorySegmentVec"
            WHERE "embedding" MATCH ${json} AND k = ${k} AND ${owners((c) => sqlRaw(`"${c}"`))} ORDER BY distance`,
    );
    return rows.map((row) => Number(row.id));
  }

  /** Forgets the vectors of the principal's segments: all, or one session's, or one run's. */
  async forget(principal: string, only: { sessionId?: string; runId?: string } = {}): Promise<void> {
    if (this.postgres || !(await this.available())) return; // PostgreSQL: the foreign key cascades
    await this.writer.transaction([
      sql`DELETE FROM "MemorySegmentVec" WHERE rowid IN (
        SELECT "id" FROM "MemorySegment" WHERE "principal" = ${principal}
        ${only.sessionId ? sql`AND "session_id" = ${only.sessionId}` : sql``}
        ${only.runId ? sql`AND "run_id" = ${only.runId}` : sql``})`,
    ]);
  }

  private async prepare(): Promise<boolean> {
    try {
      await this.writer.transaction(
        this.postgres
          ? this.pgTables()
          : [
              this.sqliteTable(),
              // A deleted run or session takes its segments with it (a foreign key), but a virtual
              // table has none: its vectors go here, at the next boot.
              sql`DELETE FROM "MemorySegmentVec" WHERE rowid NOT IN (SELECT "id" FROM "MemorySegment")`,
            ],
      );
      return true;
    } catch (err) {
      const database = this.postgres ? 'PostgreSQL (no pgvector extension)' : 'SQLite (no sqlite-vec)';
      this.logger.warn(`memory search is full-text only: ${database} cannot hold vectors`, {
        reason: (err as Error).message,
      });
      return false;
    }
  }

  private sqliteTable(): Sql {
    return sqlRaw(
      `CREATE VIRTUAL TABLE IF NOT EXISTS "MemorySegmentVec" USING vec0(
        principal TEXT PARTITION KEY, session_id TEXT, agent TEXT,
        embedding FLOAT[${this.dimensions}] distance_metric=cosine)`,
    );
  }

  private pgTables(): Sql[] {
    return [
      sql`CREATE EXTENSION IF NOT EXISTS vector`,
      sqlRaw(
        `CREATE TABLE IF NOT EXISTS "MemorySegmentVector" (
          "id" INTEGER PRIMARY KEY REFERENCES "MemorySegment"("id") ON DELETE CASCADE,
          "principal" TEXT NOT NULL, "session_id" TEXT NOT NULL, "agent" TEXT NOT NULL,
          "embedding" vector(${this.dimensions}) NOT NULL)`,
      ),
      sql`CREATE INDEX IF NOT EXISTS "MemorySegmentVector_principal_idx" ON "MemorySegmentVector" ("principal")`,
    ];
  }
}
