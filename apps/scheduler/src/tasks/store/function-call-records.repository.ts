import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';
import type { CallRecordOutcome } from '../domain/fire-outcome';

/**
 * The function-call records the executor's recorder writes from providers' reports, read by the
 * scheduler to learn how an interrupted fire's call ended.
 */
@Injectable()
export class FunctionCallRecords {
  constructor(@Inject(DB) private readonly db: Db) {}

  outcomeOf(callId: string): Promise<CallRecordOutcome | null> {
    return this.db.functionCall.findUnique({ where: { id: callId }, select: { status: true, error: true } });
  }
}
