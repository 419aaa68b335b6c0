import { Inject, Injectable } from '@nestjs/common';
import type { FunctionCallEvent } from '@app/contracts';
import { constraintViolation, DB, type Db, type Prisma } from '@app/persistence';

type Row = Prisma.FunctionCallCreateManyInput;

/** FunctionCall rows: one per finished call, as its provider reported it. */
@Injectable()
export class FunctionCallRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Stores a batch; a call id seen before is skipped. Returns how many rows were written. */
  async saveMany(calls: FunctionCallEvent[]): Promise<number> {
    if (calls.length === 0) return 0;
    const runs = await this.knownRuns(calls);
    const rows = calls.map((call) => toRow(call, runs));
    try {
      return (await this.db.functionCall.createMany({ data: rows })).count;
    } catch (err) {
      if (!isDuplicate(err)) throw err;
      return this.saveEach(rows);
    }
  }

  /** A run id that is not (yet) a Run stays in `caller` only: the foreign key must hold. */
  private async knownRuns(calls: FunctionCallEvent[]): Promise<Set<string>> {
    const ids = [...new Set(calls.map((c) => c.caller?.run_id).filter((id): id is string => Boolean(id)))];
    if (ids.length === 0) return new Set();
    const found = await this.db.run.findMany({ where: { id: { in: ids } }, select: { id: true } });
    return new Set(found.map((r) => r.id));
  }

  private async saveEach(rows: Row[]): Promise<number> {
    let written = 0;
    for (const data of rows) {
      await this.db.functionCall.create({ data }).then(
        () => (written += 1),
        (err: unknown) => {
          if (!isDuplicate(err)) throw err;
        },
      );
    }
    return written;
  }
}

function toRow(call: FunctionCallEvent, knownRuns: Set<string>): Row {
  const runId = call.caller?.run_id;
  return {
    id: call.id,
    name: call.name,
    caller_kind: call.caller?.kind ?? 'unknown',
    caller: call.caller ? (JSON.parse(JSON.stringify(call.caller)) as Prisma.InputJsonObject) : undefined,
    run_id: runId && knownRuns.has(runId) ? runId : null,
    status: call.status,
    elapsed_ms: call.elapsed_ms,
    error: call.error ? `${call.error_code ?? 'error'}: ${call.error}` : null,
    params_summary: call.params_summary,
    created_at: new Date(call.finished_at),
  };
}

function isDuplicate(err: unknown): boolean {
  return constraintViolation(err) === 'unique';
}
