// Idempotency-Key claims on both real databases: one claim of a key wins, even at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMigrated, type Db } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { IdempotencyKeyRepository } from './idempotency-key.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const claimOf = (key: string, runId: string, principal = 'alice') => ({
  principal,
  key,
  bodyHash: `hash-of-${key}`,
  runId,
});

describe.each(MIGRATED_DATABASES)('idempotency keys on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let keys: IdempotencyKeyRepository;
  const dayAgo = () => new Date(Date.now() - DAY_MS);

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    keys = new IdempotencyKeyRepository(db);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  it('the first claim holds the key; later ones get it back; another principal has its own', async () => {
    expect(await keys.claim(claimOf('k1', 'run_a'), dayAgo())).toBeNull();
    expect(await keys.claim(claimOf('k1', 'run_b'), dayAgo())).toEqual(claimOf('k1', 'run_a'));
    expect(await keys.claim(claimOf('k1', 'run_c', 'bob'), dayAgo())).toBeNull();
  });

  it('of claims made at once, exactly one wins and the others are given its run', async () => {
    const results = await Promise.all(
      ['run_1', 'run_2', 'run_3', 'run_4'].map((runId) => keys.claim(claimOf('k2', runId), dayAgo())),
    );
    const winners = results.filter((held) => held === null);
    expect(winners).toHaveLength(1);
    const runs = new Set(results.filter((held) => held !== null).map((held) => held?.runId));
    expect(runs.size).toBe(1);
  });

  it('a claim older than the window is replaced, and a released one frees the key', async () => {
    await keys.claim(claimOf('k3', 'run_old'), dayAgo());
    expect(await keys.claim(claimOf('k3', 'run_new'), new Date(Date.now() + 1_000))).toBeNull();
    expect(await keys.claim(claimOf('k3', 'run_x'), dayAgo())).toMatchObject({ runId: 'run_new' });
    await keys.release(claimOf('k3', 'run_new'));
    expect(await keys.claim(claimOf('k3', 'run_y'), dayAgo())).toBeNull();
  });

  it('purges the claims made before a time', async () => {
    await keys.claim(claimOf('k4', 'run_a'), dayAgo());
    expect(await keys.purge(new Date(Date.now() + 1_000))).toBeGreaterThanOrEqual(1);
    expect(await keys.claim(claimOf('k4', 'run_b'), dayAgo())).toBeNull();
  });
});
