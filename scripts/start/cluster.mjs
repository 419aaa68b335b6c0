// `npm run cluster`: the production shape on this machine. A three-node NATS cluster with
// JetStream (streams and buckets at three replicas), a PostgreSQL and a Redis of its own, HAProxy
// in front of the gateways; every server on its own ports with its data in a temporary folder, so
// that a test can kill or restart any one of them without touching anything else on the machine.
// Each server's plan has its own file: cluster-nats.mjs, cluster-stores.mjs, cluster-balancer.mjs.
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planBalancer } from './cluster-balancer.mjs';
import { NATS_NODES, planNats } from './cluster-nats.mjs';
import { planPostgres, planRedis } from './cluster-stores.mjs';
import { requireBinary } from './programs.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Plans the cluster: writes each server's configuration into a new temporary folder and returns
 * the servers as process specs for the supervisor, the environment every service shares, each
 * service's own NATS user, and the gateways' ports.
 */
export async function planCluster({ root, host, port, databaseUrl, gateways }) {
  const nats = requireBinary('/usr/sbin/nats-server', 'nats-server', 'nats-server');
  const haproxy = requireBinary('/usr/sbin/haproxy', 'haproxy', 'haproxy');
  const redis = requireBinary('redis-server', 'redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'agentchassis-cluster-'));
  chmodSync(dir, 0o755);
  const ports = { nats: [], gateways: [] };
  for (let i = 0; i < NATS_NODES; i += 1)
    ports.nats.push({ client: await freePort(), cluster: await freePort(), http: await freePort() });
  for (let i = 0; i < gateways; i += 1) ports.gateways.push(await freePort());
  ports.redis = await freePort();
  const ownPostgres = !/^postgres(ql)?:/.test(databaseUrl);
  if (ownPostgres) ports.postgres = await freePort();

  const natsPlan = planNats({ nats, root, dir, natsPorts: ports.nats });
  const servers = [...natsPlan.servers, planRedis(redis, dir, ports.redis)];
  if (ownPostgres) {
    const postgres = planPostgres(dir, ports.postgres);
    servers.push(postgres.server);
    databaseUrl = postgres.url;
  }
  return {
    dir,
    ports,
    servers,
    balancer: planBalancer(haproxy, dir, host, port, ports.gateways),
    env: {
      ...natsPlan.env,
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      DATABASE_URL: databaseUrl,
    },
    userEnv: natsPlan.userEnv,
    monitorUrls: natsPlan.monitorUrls,
  };
}

/** Resolves once `url` answers 200 (the platform through the load balancer); polls until then. */
export async function untilHealthy(url) {
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
