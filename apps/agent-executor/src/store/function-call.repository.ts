import { Inject, Injectable } from '@nestjs/common';
import type { FunctionCallEvent } from '@app/contracts';
import { sql, sqlJoin, type Sql, SQL_WRITER, type SqlWriter } from '@app/persistence';

/**
 * FunctionCall rows: one per finished call, as its provider reported it. A batch arrives with
 * nearly every turn, so it is one raw statement on the writer's connection (as the turn's other
 * writes): through Prisma's client it was a read and an insert, each compiled per query.
 */
@Injectable()
export class FunctionCallRepository {
  constructor(@Inject(SQL_WRITER) private readonly writer: SqlWriter) {}

  /** Stores a batch; a call id seen before is skipped. Returns how many rows were written. */
  async saveMany(calls: FunctionCallEvent[]): Promise<number> {
    if (calls.length === 0) return 0;
    const [written] = await this.writer.transaction([
      sql`INSERT INTO "FunctionCall" ("id", "name", "caller_kind", "caller", "run_id", "status", "elapsed_ms", "error", "params_summary", "created_at")
        VALUES ${sqlJoin(calls.map(rowOf))}
        ON CONFLICT ("id") DO NOTHING`,
    ]);
    return written;
  }
}

/** A run id that is not (yet) a Run stays in `caller` only: the foreign key must hold. */
function rowOf(call: FunctionCallEvent): Sql {
  const { caller } = call;
  const error = call.error ? `${call.error_code ?? 'error'}: ${call.error}` : null;
  const runId = sql`(SELECT "id" FROM "Run" WHERE "id" = ${caller?.run_id ?? null})`;
  return sql`(${call.id}, ${call.name}, ${caller?.kind ?? 'unknown'}, ${caller ? JSON.stringify(caller) : null}, ${runId},
    ${call.status}, ${call.elapsed_ms}, ${error}, ${call.params_summary}, ${new Date(call.finished_at)})`;
}
