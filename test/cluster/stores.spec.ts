import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import type { Cluster } from './cluster.harness';
import { NOTHING_LOST, startFaultCluster, underLoad } from './fault-case';

// The cluster's PostgreSQL restarted (a fast shutdown, then an immediate one) and its Redis
// restarted empty (kill -9, nothing kept on disk) under load; the supervisor starts each again.
describe('npm run cluster: its PostgreSQL and its Redis restarted under load', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startFaultCluster();
  }, 180_000);
  afterAll(() => cluster?.close());

  // Runs whose statement was cut by the shutdown end here, unrecorded: their leases lapse and
  // another executor ends them; the callers' retries (same Idempotency-Key) and resumed streams
  // (Last-Event-ID) get those answers. Both shutdowns in one window: fast (SIGINT to the
  // postmaster: sessions ended with 57P01, a checkpoint), then, once it answers again, immediate
  // (SIGQUIT, as `pg_ctl -m immediate`: no checkpoint, crash recovery at the next start).
  it(
    'PostgreSQL, fast then immediate shutdown: no accepted run, fire or delay is lost or doubled',
    { timeout: 240_000 },
    async () => {
      const report = await underLoad(cluster, 'restart-postgres-fast-immediate', async () => {
        await cluster.kill('postgres', 'SIGINT');
        await cluster.restarted('postgres', 1);
        await answering(cluster);
        await cluster.kill('postgres', 'SIGQUIT');
        await cluster.restarted('postgres', 1);
      });
      expect(report).toMatchObject(NOTHING_LOST);
      expect(cluster.output()).toMatch(/not properly shut down; automatic recovery in progress/);
    },
  );

  // The cron's trigger lives in Redis: the tick due while it was empty is not fired but recorded
  // `missed` (the misfire policy), never silently dropped.
  it(
    'Redis, restarted empty: no run or delay is lost, a missed tick is recorded',
    { timeout: 240_000 },
    async () => {
      const report = await underLoad(cluster, 'restart-redis', async () => {
        await cluster.kill('redis', 'SIGKILL');
        await cluster.restarted('redis', 1);
      });
      expect(report).toMatchObject({ ...NOTHING_LOST, firesLost: report.firesMissing.length });
      expect(report.streamsEndedWithoutRunEnd).toBe(0);
      expect(report.firesMissing.every((fire) => / missed /.test(fire))).toBe(true);
      expect(report.firesMissing.length).toBeLessThanOrEqual(2);
    },
  );
});

/** Resolves once the cluster's PostgreSQL answers a query again (its recovery done). */
function answering(cluster: Cluster): Promise<void> {
  return expectEventually(async () => expect(await cluster.db.$queryRaw`SELECT 1 AS up`).toHaveLength(1), {
    timeoutMs: 60_000,
    intervalMs: 250,
  });
}
