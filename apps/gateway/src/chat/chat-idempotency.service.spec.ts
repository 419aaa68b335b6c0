import { describe, expect, it } from 'vitest';
import { AppError } from '@app/contracts';
import type { Logger } from '@app/observability';
import { ChatIdempotencyService, IDEMPOTENCY_TTL_MS } from './chat-idempotency.service';
import type { IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';

/** Claims in memory, as the repository keeps them: the first claim of a key holds it. */
function keys() {
  const held = new Map<string, IdempotencyClaim & { at: number }>();
  const sinces: number[] = [];
  const repository = {
    claim: async (claim: IdempotencyClaim, since: Date) => {
      sinces.push(since.getTime());
      const id = `${claim.principal}/${claim.key}`;
      const found = held.get(id);
      if (found && found.at >= since.getTime()) return found;
      held.set(id, { ...claim, at: Date.now() });
      return null;
    },
    release: async (claim: IdempotencyClaim) => void held.delete(`${claim.principal}/${claim.key}`),
    purge: async () => 0,
  };
  const service = new ChatIdempotencyService(
    repository as unknown as IdempotencyKeyRepository,
    { warn: () => undefined } as unknown as Logger,
  );
  return { service, sinces };
}

describe('ChatIdempotencyService', () => {
  it('the first request claims the key for its run; a retry with the same body gets that run', async () => {
    const { service } = keys();
    const first = await service.claim('k1', 'alice', { message: 'hi', session_id: 'ses_1' }, 'run_a');
    expect(first).toMatchObject({ replay: false, claim: { runId: 'run_a' } });
    const retry = await service.claim(
      'k1',
      'alice',
      { session_id: 'ses_1', message: 'hi', stream: true },
      'run_b',
    );
    expect(retry).toMatchObject({ replay: true, claim: { runId: 'run_a' } });
  });

  it('the same key with another body is an idempotency_conflict naming the key', async () => {
    const { service } = keys();
    await service.claim('k2', 'alice', { message: 'hi' }, 'run_a');
    const other = service.claim('k2', 'alice', { message: 'hi', agent: 'helper' }, 'run_b');
    await expect(other).rejects.toBeInstanceOf(AppError);
    await expect(other).rejects.toMatchObject({
      code: 'idempotency_conflict',
      details: { idempotency_key: 'k2' },
    });
  });

  it('keys are per principal, and hold for 24 h', async () => {
    const { service, sinces } = keys();
    await service.claim('k3', 'alice', { message: 'hi' }, 'run_a');
    expect(await service.claim('k3', 'bob', { message: 'hi' }, 'run_b')).toMatchObject({ replay: false });
    expect(Date.now() - sinces[0]).toBeGreaterThanOrEqual(IDEMPOTENCY_TTL_MS);
    expect(Date.now() - sinces[0]).toBeLessThan(IDEMPOTENCY_TTL_MS + 60_000);
  });

  it('a released key may start a run again', async () => {
    const { service } = keys();
    const first = await service.claim('k4', 'alice', { message: 'hi' }, 'run_a');
    await service.release(first.claim);
    expect(await service.claim('k4', 'alice', { message: 'hi' }, 'run_b')).toMatchObject({
      replay: false,
      claim: { runId: 'run_b' },
    });
  });
});
