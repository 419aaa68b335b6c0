import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster.harness';
import { NOTHING_LOST, underLoad } from './fault-case';

// The cluster's PostgreSQL restarted (fast shutdown: SIGINT to the postmaster) and its Redis
// restarted empty (kill -9, nothing kept on disk) under load; the supervisor starts each again.
describe('npm run cluster: its PostgreSQL and its Redis restarted under load', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster();
    cluster.llm.setScript({
      replies: [
        { toolCalls: [{ name: cluster.fn.name, arguments: { tag: '{{last_user}}' } }] },
        'done: {{last_user}}',
      ],
    });
  }, 180_000);
  afterAll(() => cluster?.close());

  // Runs whose statement was cut by the shutdown end here, unrecorded: their leases lapse and
  // another executor ends them; the callers' retries (same Idempotency-Key) and resumed streams
  // (Last-Event-ID) get those answers.
  it(
    'PostgreSQL, fast shutdown: no accepted run, fire or delay is lost or doubled',
    { timeout: 240_000 },
    async () => {
      const report = await underLoad(cluster, 'restart-postgres', async () => {
        await cluster.kill('postgres', 'SIGINT');
        await cluster.restarted('postgres', 1);
      });
      expect(report).toMatchObject(NOTHING_LOST);
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
