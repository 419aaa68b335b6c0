import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { api } from './cluster-load';
import type { Cluster } from './cluster.harness';
import { NOTHING_LOST, startFaultCluster, underLoad } from './fault-case';

// One replica of each service killed with -9 under load, one after the other on one cluster, all
// while one NATS node of three is down (killed with -9 before the first case, kept down until the
// last): the supervisor restarts each service, which connects to one of the two nodes left, and
// the other replicas carry the load meanwhile. Then the node comes back and rejoins.
describe('npm run cluster: kill -9 of one replica of each service under load, one NATS node down', () => {
  let cluster: Cluster;
  let natsNode: { release(): Promise<void> } | undefined;

  beforeAll(async () => {
    cluster = await startFaultCluster();
    // the first in every service's server list: a restarted service tries it first
    natsNode = await cluster.holdDown('nats-1');
    // The node's own death is nats-node.spec's fault: the cases start once its clients are on the
    // other two — the test's function provider among them (until it is, a task naming its function
    // is refused as unknown).
    await expectEventually(
      async () =>
        expect((await api(cluster, 'GET', `/api/v1/functions/${cluster.fn.name}`)).status).toBe(200),
      { timeoutMs: 30_000, intervalMs: 250 },
    );
  }, 180_000);
  afterAll(async () => {
    await natsNode?.release().catch(() => undefined);
    await cluster?.close();
  }, 120_000);

  it.each([
    ['agent-executor', 2],
    ['function-runner', 3],
    ['scheduler', 2],
  ] as const)('%s: loses and doubles nothing', { timeout: 240_000 }, async (piece, replicas) => {
    const report = await underLoad(cluster, `kill-${piece}-nats-down`, async () => {
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
      const report = await underLoad(cluster, 'kill-gateway-nats-down', async () => {
        await cluster.kill('gateway');
        await cluster.restarted('gateway', 2);
      });
      expect(report).toMatchObject(NOTHING_LOST);
      expect(report.streamsEndedWithoutRunEnd).toBe(0);
    },
  );

  it('the NATS node down through every case rejoins, current', { timeout: 120_000 }, async () => {
    const held = natsNode!;
    natsNode = undefined;
    await held.release();
    await cluster.natsHealthy('nats-1');
  });
});
