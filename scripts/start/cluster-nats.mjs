// `npm run cluster`'s NATS: three nodes in one cluster with JetStream, each service its own user
// (deploy/nats/auth.conf), and the check that every stream and bucket has a copy on each node.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NATS_NODES = 3;
/** Copies of each JetStream stream and bucket: one per node, so any one node may go. */
export const JETSTREAM_REPLICAS = 3;
/** The variable deploy/nats/auth.conf reads each service's password from. */
const PASSWORD_VARIABLES = {
  gateway: 'NATS_GATEWAY_PASSWORD',
  'agent-executor': 'NATS_EXECUTOR_PASSWORD',
  'function-runner': 'NATS_RUNNER_PASSWORD',
  scheduler: 'NATS_SCHEDULER_PASSWORD',
};

function natsConfig(node, natsPorts, dir) {
  const routes = natsPorts
    .filter((_, i) => i !== node)
    .map((p) => `nats-route://127.0.0.1:${p.cluster}`)
    .join(', ');
  const own = natsPorts[node];
  return [
    `server_name: nats-${node + 1}`,
    `listen: 127.0.0.1:${own.client}`,
    `http: 127.0.0.1:${own.http}`,
    'max_payload: 8MB',
    `jetstream { store_dir: "${join(dir, `nats-${node + 1}`)}" }`,
    `cluster { name: agentchassis, listen: 127.0.0.1:${own.cluster}, routes: [${routes}] }`,
    'include ./auth.conf',
    '',
  ].join('\n');
}

/**
 * Plans the nodes of the program `nats` on `natsPorts` (each { client, cluster, http }): writes their configurations and
 * the users' into `dir`; returns them as process specs, each service's NATS user, the services'
 * environment and the nodes' monitoring addresses.
 */
export function planNats({ nats, root, dir, natsPorts }) {
  // The users' passwords: the operator's (the variables deploy/nats/auth.conf reads), else new ones,
  // a letter first: a value of digits first would be read by the server's config parser as a number.
  const passwords = Object.fromEntries(
    Object.entries(PASSWORD_VARIABLES).map(([s, variable]) => [
      s,
      process.env[variable] || `ac${randomBytes(16).toString('hex')}`,
    ]),
  );
  const natsEnv = { ...process.env };
  for (const [service, variable] of Object.entries(PASSWORD_VARIABLES))
    natsEnv[variable] = passwords[service];
  writeFileSync(join(dir, 'auth.conf'), readFileSync(join(root, 'deploy/nats/auth.conf')));
  const servers = natsPorts.map((own, node) => {
    const conf = join(dir, `nats-${node + 1}.conf`);
    writeFileSync(conf, natsConfig(node, natsPorts, dir));
    return {
      name: `nats-${node + 1}`,
      command: nats,
      args: ['-c', conf, '-l', join(dir, `nats-${node + 1}.log`)],
      env: natsEnv,
      cwd: dir,
      host: '127.0.0.1',
      port: own.client,
      dir,
    };
  });
  return {
    servers,
    env: {
      NATS_URL: natsPorts.map((p) => `nats://127.0.0.1:${p.client}`).join(','),
      NATS_JETSTREAM_REPLICAS: String(JETSTREAM_REPLICAS),
    },
    /** The environment that connects a service as its own NATS user (deploy/nats/auth.conf). */
    userEnv: (service) => ({ NATS_USER: service, NATS_PASSWORD: passwords[service] }),
    monitorUrls: natsPorts.map((p) => `http://127.0.0.1:${p.http}`),
  };
}

/**
 * The JetStream streams (key-value buckets are streams named KV_<bucket>) and their replicas, as
 * the cluster's nodes report them; `expected` are the names that must exist.
 */
export async function jetstreamReplicas(monitorUrls, expected) {
  const found = new Map();
  for (const url of monitorUrls) {
    const res = await fetch(`${url}/jsz?accounts=true&streams=true&config=true`).catch(() => undefined);
    if (!res?.ok) continue;
    const jsz = await res.json();
    for (const account of jsz.account_details ?? [])
      for (const stream of account.stream_detail ?? [])
        found.set(stream.name, stream.config?.num_replicas ?? stream.cluster?.replicas?.length + 1);
  }
  return expected.map((name) => ({ name, replicas: found.get(name) }));
}

/** Waits until every stream in `expected` exists at `JETSTREAM_REPLICAS`; returns them, or throws saying which is not. */
export async function checkReplication(monitorUrls, expected, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const streams = await jetstreamReplicas(monitorUrls, expected);
    if (streams.every((s) => s.replicas === JETSTREAM_REPLICAS)) return streams;
    if (Date.now() > deadline) {
      const wrong = streams.map(
        (s) => `${s.name} at ${s.replicas === undefined ? 'none' : `R${s.replicas}`}`,
      );
      throw new Error(`JetStream replication is not ${JETSTREAM_REPLICAS}: ${wrong.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
