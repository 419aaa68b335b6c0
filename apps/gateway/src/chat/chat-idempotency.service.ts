import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IdempotencyConflictError } from '@app/contracts';
import { Logger } from '@app/observability';
import { type IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';
import type { TurnRequest } from './turn-request';

/** How long a key holds its run. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** A key's turn: the run it starts, or the run an earlier request with the same key and body started. */
export type KeyedTurn = { claim: IdempotencyClaim; replay: boolean };

/**
 * `Idempotency-Key` on chat turns: the first request with a key claims it for its run (per
 * principal, for 24 h); a retry with the same key and body follows that run instead of starting
 * another; the same key with another body is refused. The claims are rows in the database, which
 * holds the runs themselves: a retry after Redis lost its data must still find its run.
 */
@Injectable()
export class ChatIdempotencyService {
  private purgedAt = 0;

  constructor(
    @Inject(IdempotencyKeyRepository) private readonly keys: IdempotencyKeyRepository,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async claim(key: string, principal: string, request: TurnRequest, runId: string): Promise<KeyedTurn> {
    this.purgeNowAndThen();
    const claim = { principal, key, bodyHash: bodyHashOf(request), runId };
    const held = await this.keys.claim(claim, new Date(Date.now() - IDEMPOTENCY_TTL_MS));
    if (!held) return { claim, replay: false };
    if (held.bodyHash !== claim.bodyHash) throw new IdempotencyConflictError(key);
    return { claim: held, replay: true };
  }

  /** The claimed run never started (refused, over a limit): a retry may start it. */
  release(claim: IdempotencyClaim): Promise<void> {
    return this.keys.release(claim);
  }

  private purgeNowAndThen(): void {
    if (Date.now() - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = Date.now();
    this.keys.purge(new Date(Date.now() - IDEMPOTENCY_TTL_MS)).catch((err: unknown) => {
      this.logger.warn('could not purge expired idempotency keys', { err });
    });
  }
}

/** The turn the body asks for (a caller's plan included); `stream` only chooses how the answer is delivered. */
export function bodyHashOf(request: TurnRequest): string {
  const { message, session_id, agent } = request;
  const plan = 'plan' in request ? [request.plan] : [];
  const turn = JSON.stringify([message ?? null, session_id ?? null, agent ?? null, ...plan]);
  return createHash('sha256').update(turn).digest('hex');
}
