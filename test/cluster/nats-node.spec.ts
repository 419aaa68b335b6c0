import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from './cluster.harness';
import { NOTHING_LOST, startFaultCluster, underLoad } from './fault-case';

// One NATS node of three killed with -9 under load, the supervisor restarting it: the services
// fail over to the other two (their server list), JetStream keeps its R3 bucket on two. Then all
// three restarted one at a time on the same cluster.
describe('npm run cluster: kill -9 of one NATS node, then a rolling restart, under load', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startFaultCluster();
  }, 180_000);
  afterAll(() => cluster?.close());

  it('loses and doubles nothing, and the node rejoins', { timeout: 240_000 }, async () => {
    const report = await underLoad(cluster, 'nats-kill', async () => {
      await cluster.kill('nats-2');
      await cluster.restarted('nats-2', 1);
    });
    expect(report).toMatchObject(NOTHING_LOST);
    expect(report.streamsEndedWithoutRunEnd).toBe(0);
    expect(report.conversations).toBeGreaterThan(50);
    expect(report.fires).toBeGreaterThan(10);
  });

  // As an operator upgrades the servers: each node stopped (SIGTERM), restarted by the supervisor
  // and current again (its /healthz) before the next one goes, all three in turn.
  it('a rolling restart of all three nodes loses and doubles nothing', { timeout: 300_000 }, async () => {
    const report = await underLoad(cluster, 'nats-rolling', async () => {
      for (const node of ['nats-1', 'nats-2', 'nats-3'] as const) {
        await cluster.kill(node, 'SIGTERM');
        await cluster.restarted(node, 1);
        await cluster.natsHealthy(node);
      }
    });
    expect(report).toMatchObject(NOTHING_LOST);
    expect(report.streamsEndedWithoutRunEnd).toBe(0);
    expect(report.conversations).toBeGreaterThan(50);
  });
});
