import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { api } from './cluster-load';
import type { Cluster } from './cluster.harness';
import { NOTHING_LOST, startFaultCluster, underLoad } from './fault-case';

// Every fault of `npm run cluster` under load, one after the other on one cluster (starting one
// costs ~12 s): a NATS node killed, then all three restarted in turn; the cluster's PostgreSQL and
// Redis restarted; then one replica of each service killed while one NATS node is down. Each case
// tells its own conversations and tasks from the others' by its prefix, and ends with the cluster
// whole again (every piece restarted by the supervisor), as the next one needs it.
export function faultCases(): void {
  describe('npm run cluster: faults under load', () => {
    let cluster: Cluster;

    beforeAll(async () => {
      cluster = await startFaultCluster();
    }, 180_000);
    afterAll(() => cluster?.close(), 120_000);

    // One NATS node of three killed with -9, the supervisor restarting it: the services fail over to
    // the other two (their server list), JetStream keeps its R3 stream and bucket on two.
    it(
      'kill -9 of one NATS node loses and doubles nothing, and the node rejoins',
      { timeout: 240_000 },
      async () => {
        const report = await underLoad(cluster, 'nats-kill', async () => {
          await cluster.kill('nats-2');
          await cluster.restarted('nats-2', 1);
        });
        expect(report).toMatchObject(NOTHING_LOST);
        expect(report.streamsEndedWithoutRunEnd).toBe(0);
        expect(report.conversations).toBeGreaterThan(50);
        expect(report.fires).toBeGreaterThan(10);
        await cluster.natsHealthy('nats-2');
      },
    );

    // As an operator upgrades the servers: each node stopped (SIGTERM), restarted by the supervisor
    // and current again (its /healthz) before the next one goes, all three in turn.
    it(
      'a rolling restart of all three NATS nodes loses and doubles nothing',
      { timeout: 300_000 },
      async () => {
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
      },
    );

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
        await answering(cluster);
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

    // One replica of each service killed with -9 under load, all while one NATS node of three is down
    // (killed with -9 before the first kill, kept down until the last): the supervisor restarts each
    // service, which connects to one of the two nodes left, and the other replicas carry the load
    // meanwhile. Then the node comes back and rejoins.
    describe('one NATS node down', () => {
      let natsNode: { release(): Promise<void> } | undefined;

      beforeAll(async () => {
        // the first in every service's server list: a restarted service tries it first
        natsNode = await cluster.holdDown('nats-1');
        // The cases start once the node's clients are on the other two — the test's function
        // provider among them (until it is, a task naming its function is refused as unknown).
        await expectEventually(
          async () =>
            expect((await api(cluster, 'GET', `/api/v1/functions/${cluster.fn.name}`)).status).toBe(200),
          { timeoutMs: 30_000, intervalMs: 250 },
        );
      }, 120_000);
      afterAll(async () => {
        await natsNode?.release().catch(() => undefined);
      }, 120_000);

      it.each([
        ['agent-executor', 2],
        ['function-runner', 3],
        ['scheduler', 2],
      ] as const)(
        'kill -9 of one %s loses and doubles nothing',
        { timeout: 240_000 },
        async (piece, replicas) => {
          const report = await underLoad(cluster, `kill-${piece}-nats-down`, async () => {
            await cluster.kill(piece);
            await cluster.restarted(piece, replicas);
          });
          expect(report).toMatchObject(NOTHING_LOST);
          expect(report.streamsEndedWithoutRunEnd).toBe(0);
        },
      );

      // Its callers' connections drop with it: a JSON caller retries with its Idempotency-Key, a
      // stream is resumed with its Last-Event-ID, both through the load balancer on the other gateway.
      it(
        'kill -9 of one gateway: no accepted run is lost or answered twice, every stream resumed to run_end',
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

      it('the NATS node down through every kill rejoins, current', { timeout: 120_000 }, async () => {
        const held = natsNode!;
        natsNode = undefined;
        await held.release();
        await cluster.natsHealthy('nats-1');
      });
    });
  });
}

/** Resolves once the cluster's PostgreSQL answers a query again (its recovery done). */
function answering(cluster: Cluster): Promise<void> {
  return expectEventually(async () => expect(await cluster.db.$queryRaw`SELECT 1 AS up`).toHaveLength(1), {
    timeoutMs: 60_000,
    intervalMs: 250,
  });
}
