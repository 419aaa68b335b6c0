import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster.harness';
import { NOTHING_LOST, underLoad } from './fault-case';

// One NATS node of three killed with -9 under load, the supervisor restarting it: the services
// fail over to the other two (their server list), JetStream keeps its R3 bucket on two.
describe('npm run cluster: kill -9 of one NATS node under load', () => {
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
});
