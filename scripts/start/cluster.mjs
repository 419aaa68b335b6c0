// `npm run cluster`: the production shape on this machine. A three-node NATS cluster with
// JetStream (streams and buckets at three replicas), a PostgreSQL and a Redis of its own, HAProxy
// in front of the gateways; every server on its own ports with its data in a temporary folder, so
// that a test can kill or restart any one of them without touching anything else on the machine.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
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
const BINARIES = { nats: '/usr/sbin/nats-server', haproxy: '/usr/sbin/haproxy', redis: 'redis-server' };

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

function which(command) {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The newest installed PostgreSQL's programs (Debian keeps them out of PATH). */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(base, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (dir) return dir;
  const initdb = which('initdb');
  if (initdb) return join(initdb, '..');
  throw new Error("the cluster needs PostgreSQL's initdb: apt-get install postgresql");
}

function requireBinary(path, name, pkg) {
  const found = existsSync(path) ? path : which(name);
  if (!found) throw new Error(`the cluster needs ${name}: apt-get install ${pkg}`);
  return found;
}

function natsConfig(node, ports, dir) {
  const routes = ports.nats
    .filter((_, i) => i !== node)
    .map((p) => `nats-route://127.0.0.1:${p.cluster}`)
    .join(', ');
  const own = ports.nats[node];
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

function haproxyConfig(host, port, gatewayPorts) {
  const servers = gatewayPorts.map((p, i) => `  server gateway-${i + 1} 127.0.0.1:${p} check`);
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // SSE streams and long runs: a response may take as long as a run.
    '  timeout client 15m',
    '  timeout server 15m',
    '  timeout tunnel 1h',
    // A request that could not reach a gateway (refused: it just died) goes to the other one.
    '  retries 3',
    '  option redispatch',
    'frontend api',
    `  bind ${host}:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    // /health/live, as the Kubernetes probes: /health is the whole platform's health and would
    // take every gateway out at once when any one service restarts.
    '  option httpchk GET /health/live',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    ...servers,
    '',
  ].join('\n');
}

/** Runs `args` as the postgres user when this is root (initdb and postgres refuse root). */
function asPostgres(args) {
  return process.getuid?.() === 0
    ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', ...args]
    : args;
}

function initPostgres(dir, port) {
  const bin = postgresBin();
  const data = join(dir, 'postgres');
  mkdirSync(data, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(data, uid, gid);
  }
  const [command, ...args] = asPostgres([
    join(bin, 'initdb'),
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
  ]);
  execFileSync(command, args, { stdio: 'ignore' });
  const statements = existsSync(join(bin, '..', 'lib', 'pg_stat_statements.so'))
    ? ['-c', 'shared_preload_libraries=pg_stat_statements']
    : [];
  return asPostgres([
    join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-k',
    data,
    '-c',
    'max_connections=300',
    // A process killed here keeps its writes in the OS's cache: only a machine crash could lose them.
    '-c',
    'fsync=off',
    ...statements,
  ]);
}

/**
 * Plans the cluster: writes each server's configuration into a new temporary folder and returns
 * the servers as process specs for the supervisor, the environment every service shares, each
 * service's own NATS user, and the gateways' ports.
 */
export async function planCluster({ root, host, port, databaseUrl, gateways }) {
  const nats = requireBinary(BINARIES.nats, 'nats-server', 'nats-server');
  const haproxy = requireBinary(BINARIES.haproxy, 'haproxy', 'haproxy');
  const redis = requireBinary(BINARIES.redis, 'redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'agentchassis-cluster-'));
  chmodSync(dir, 0o755);
  const ports = { nats: [], gateways: [] };
  for (let i = 0; i < NATS_NODES; i += 1)
    ports.nats.push({ client: await freePort(), cluster: await freePort(), http: await freePort() });
  for (let i = 0; i < gateways; i += 1) ports.gateways.push(await freePort());
  ports.redis = await freePort();
  const ownPostgres = !/^postgres(ql)?:/.test(databaseUrl);
  if (ownPostgres) ports.postgres = await freePort();

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
  const specs = ports.nats.map((own, node) => {
    const conf = join(dir, `nats-${node + 1}.conf`);
    writeFileSync(conf, natsConfig(node, ports, dir));
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
  specs.push({
    name: 'redis',
    command: redis,
    // No persistence: a restart starts empty, as a cache's restart does in production.
    args: [
      '--bind',
      '127.0.0.1',
      '--port',
      String(ports.redis),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--logfile',
      join(dir, 'redis.log'),
    ],
    env: process.env,
    cwd: dir,
    host: '127.0.0.1',
    port: ports.redis,
    dir,
  });
  if (ownPostgres) {
    const [command, ...args] = initPostgres(dir, ports.postgres);
    specs.push({
      name: 'postgres',
      command,
      args,
      env: process.env,
      cwd: dir,
      host: '127.0.0.1',
      port: ports.postgres,
      dir,
    });
    databaseUrl = `postgresql://postgres@127.0.0.1:${ports.postgres}/postgres`;
  }
  const haproxyConf = join(dir, 'haproxy.cfg');
  writeFileSync(haproxyConf, haproxyConfig(host, port, ports.gateways));
  const balancer = {
    name: 'haproxy',
    command: haproxy,
    args: ['-db', '-f', haproxyConf],
    env: process.env,
    cwd: dir,
    host: '127.0.0.1',
    port,
    dir,
  };

  const env = {
    NATS_URL: ports.nats.map((p) => `nats://127.0.0.1:${p.client}`).join(','),
    NATS_JETSTREAM_REPLICAS: String(JETSTREAM_REPLICAS),
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    DATABASE_URL: databaseUrl,
  };
  return {
    dir,
    ports,
    servers: specs,
    balancer,
    env,
    /** The environment that connects a service as its own NATS user (deploy/nats/auth.conf). */
    userEnv: (service) => ({ NATS_USER: service, NATS_PASSWORD: passwords[service] }),
    monitorUrls: ports.nats.map((p) => `http://127.0.0.1:${p.http}`),
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

/** Resolves once `url` answers 200 (the platform through the load balancer); polls until then. */
export async function untilHealthy(url) {
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
