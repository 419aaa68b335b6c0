import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster.harness';
import { NOTHING_LOST, underLoad } from './fault-case';

// One replica of each service killed with -9 under load, one after the other on one cluster; the
// supervisor restarts each, the other replicas carry the load meanwhile.
describe('npm run cluster: kill -9 of one replica of each service under load', () => {
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

  it.each([
    ['agent-executor', 2],
    ['function-runner', 3],
    ['scheduler', 2],
  ] as const)('%s: loses and doubles nothing', { timeout: 240_000 }, async (piece, replicas) => {
    const report = await underLoad(cluster, `kill-${piece}`, async () => {
      await cluster.kill(piece);
      await cluster.restarted(piece, replicas);
    });
    expect(report).toMatchObject(NOTHING_LOST);
    expect(report.streamsEndedWithoutRunEnd).toBe(0);
  });

  // Its callers' connections drop with it: a JSON caller retries with its Idempotency-Key, a
  // stream is resumed with its Last-Event-ID, both through the load balancer on the other gateway.
  it(
    'gateway: no accepted run is lost or answered twice, every stream resumed to run_end',
    { timeout: 240_000 },
    async () => {
      const report = await underLoad(cluster, 'kill-gateway', async () => {
        await cluster.kill('gateway');
        await cluster.restarted('gateway', 2);
      });
      expect(report).toMatchObject(NOTHING_LOST);
      expect(report.streamsEndedWithoutRunEnd).toBe(0);
    },
  );
});
