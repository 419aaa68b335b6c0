import { Inject, Injectable } from '@nestjs/common';
import { constraintViolation, DB, type Db } from '@app/persistence';

export interface IdempotencyClaim {
  principal: string;
  key: string;
  bodyHash: string;
  runId: string;
}

/** IdempotencyKey rows: which run a caller's key started, and for which body. */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * Claims the key for `claim.runId`, unless a claim made since `since` holds it: that one is
   * returned instead (an older one is replaced). Concurrent claims of one key: one wins.
   */
  async claim(claim: IdempotencyClaim, since: Date): Promise<IdempotencyClaim | null> {
    const { principal, key } = claim;
    await this.db.idempotencyKey.deleteMany({ where: { principal, key, created_at: { lt: since } } });
    try {
      await this.db.idempotencyKey.create({
        data: { principal, key, body_hash: claim.bodyHash, run_id: claim.runId },
      });
      return null;
    } catch (err) {
      if (constraintViolation(err) !== 'unique') throw err;
    }
    const held = await this.db.idempotencyKey.findUnique({ where: { principal_key: { principal, key } } });
    if (!held) return this.claim(claim, since);
    return { principal, key, bodyHash: held.body_hash, runId: held.run_id };
  }

  /** Gives the key up, if it still holds `runId` (its run never started). */
  async release({ principal, key, runId }: IdempotencyClaim): Promise<void> {
    await this.db.idempotencyKey.deleteMany({ where: { principal, key, run_id: runId } });
  }

  /** Drops the claims made before `before`; returns how many. */
  async purge(before: Date): Promise<number> {
    return (await this.db.idempotencyKey.deleteMany({ where: { created_at: { lt: before } } })).count;
  }
}
