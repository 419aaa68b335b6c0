// `npm start`: build what changed, validate the configuration, check NATS and Redis (starting local ones that
// are installed but not running), apply migrations, then run the four services as separate
// processes (as in production) with prefixed logs, restarting any that exits. It runs in the
// foreground; SIGINT / SIGTERM / SIGHUP stop everything gracefully, a second signal at once.
// `npm run cluster` (`--cluster`) runs the production shape instead: see scripts/start/cluster.mjs.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './run/build.mjs';
import { parseStartArgs, SERVICES, UsageError } from './start/args.mjs';
import { checkReplication } from './start/cluster-nats.mjs';
import { planCluster, untilHealthy } from './start/cluster.mjs';
import { planDependencies, waitForDependencies } from './start/dependencies.mjs';
import { privateDist } from './start/private-dist.mjs';
import { log, Supervisor } from './start/supervisor.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** The services' V8 flags, as the images start them (deploy/Dockerfile); some are refused in NODE_OPTIONS. */
const NODE_FLAGS = require('../deploy/node-flags.json');
// Who stops first: the API and the timers that start runs, then the runs, then the functions they
// call, and the servers everything talks through last.
const STOP_ORDER = [
  ['haproxy', 'gateway', 'scheduler'],
  ['agent-executor'],
  ['function-runner'],
  ['nats-server', 'redis-server', 'nats-1', 'nats-2', 'nats-3', 'redis', 'postgres'],
];

function fail(message) {
  console.error(`agentchassis: ${message}`);
  process.exit(1);
}

function build() {
  try {
    buildIfStale(root);
  } catch {
    fail('the build failed (see above)');
  }
}

function loadConfig() {
  const { loadConfig: load, ConfigError } = require(join(dist, 'libs/config/src'));
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

async function migrate(config) {
  const { Migrator } = require(join(dist, 'libs/persistence/src'));
  const migrator = await Migrator.open(config.database.url, root);
  const applied = await migrator.deploy();
  await migrator.close();
  if (applied.length) log(`applied migrations ${applied.join(', ')}`);
}

/**
 * One process spec per replica. Services without an API bind a probe port only with METRICS_PORT;
 * then each gets its own (METRICS_PORT, +1, +2, ... in the order started), so replicas never clash.
 */
function serviceSpecs(replicas, metricsPort, cluster) {
  const specs = [];
  let probes = 0;
  for (const service of SERVICES) {
    for (let i = 1; i <= replicas[service]; i += 1) {
      const env = { ...process.env };
      if (cluster) {
        // each as its own NATS user; each gateway on its own port, behind the load balancer
        Object.assign(env, cluster.userEnv(service));
        if (service === 'gateway')
          Object.assign(env, { HOST: '127.0.0.1', PORT: String(cluster.ports.gateways[i - 1]) });
      }
      if (service !== 'gateway' && metricsPort !== undefined) {
        env.METRICS_PORT = String(metricsPort === 0 ? 0 : metricsPort + probes++);
      }
      const main = join(dist, 'apps', service, 'src/main.js');
      const args = [...NODE_FLAGS, '--require', join(root, 'scripts/start/orphan-guard.cjs'), main];
      const name = replicas[service] > 1 ? `${service}#${i}` : service;
      specs.push({ name, command: process.execPath, args, env, cwd: root });
    }
  }
  return specs;
}

let options;
try {
  options = parseStartArgs(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) fail(err.message);
  throw err;
}
if (options.help) {
  console.log(options.help);
  process.exit(0);
}
if (options.build) build();
// The services run from a copy of dist of their own: a later build (`npm run cli` builds what
// changed) never rewrites the files a running platform executes.
let dist;
try {
  dist = privateDist(root);
} catch (err) {
  fail(err.message);
}
let config = loadConfig();
const { maskUrl } = require(join(dist, 'libs/config/src'));
let cluster;
if (options.cluster) {
  cluster = await planCluster({
    root,
    host: config.gateway.host,
    port: config.gateway.port,
    databaseUrl: config.database.url,
    gateways: options.replicas.gateway,
  }).catch((err) => fail(err.message));
  // the services read the cluster's servers from their environment, as the user's other settings
  Object.assign(process.env, cluster.env);
  config = loadConfig();
}
const supervisor = new Supervisor();
let signals = 0;

async function shutdown(reason, code = 0) {
  log(`stopping (${reason}); a second signal kills at once`);
  await supervisor.stop(STOP_ORDER, config.shutdown.timeout + 5_000);
  if (cluster) rmSync(cluster.dir, { recursive: true, force: true });
  log('stopped');
  process.exit(code);
}

// Ctrl-C in a terminal signals npm and this process alike, and npm forwards its copy: one keypress,
// two SIGINTs within milliseconds. Only a signal well after the first one means "now".
const SAME_STOP_MS = 500;
let firstAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (signals > 0 && Date.now() - firstAt < SAME_STOP_MS) return;
    signals += 1;
    firstAt ||= Date.now();
    if (signals === 1) return void shutdown(signal);
    log(`${signal} again: killing every process now`);
    supervisor.killAll();
  });
}

const abort = (message) => {
  console.error(`agentchassis: ${message}`);
  return shutdown('startup failed', 1);
};
const dependencies = cluster
  ? cluster.servers
  : await planDependencies(config, root, maskUrl).catch((err) => fail(err.message));
supervisor.start(supervisor.add(dependencies));
if (cluster) {
  log(`cluster servers: ${dependencies.map((dep) => `${dep.name} on ${dep.host}:${dep.port}`).join(', ')}`);
  log(`cluster folder ${cluster.dir} (configurations, data and logs; removed at stop)`);
} else if (dependencies.length) {
  const started = dependencies.map((dep) => `${dep.name} on ${dep.host}:${dep.port}`).join(' and ');
  log(`started ${started} (data and logs in ./data); stopped with the platform`);
}
try {
  await waitForDependencies(dependencies);
  await migrate(config).catch((err) => {
    throw new Error(`database migration failed (DATABASE_URL): ${err?.message ?? err}`);
  });
} catch (err) {
  await abort(err.message);
}
supervisor.start(supervisor.add(serviceSpecs(options.replicas, config.metrics.port, cluster)));
if (cluster) {
  supervisor.start(supervisor.add([cluster.balancer]));
  const gateways = cluster.ports.gateways.map((port) => `127.0.0.1:${port}`).join(', ');
  log(
    `HAProxy on ${config.gateway.host}:${config.gateway.port}, round robin over the gateways on ${gateways}`,
  );
  // every stream and bucket the platform creates (a bucket is the stream KV_<name>)
  const { Buckets, Streams } = require(join(dist, 'libs/contracts/src'));
  const expected = [
    ...Object.values(Streams).map((stream) => stream.name),
    ...Object.values(Buckets).map((bucket) => `KV_${bucket}`),
  ];
  checkReplication(cluster.monitorUrls, expected).then(
    (streams) => log(`JetStream: ${streams.map((s) => `${s.name} R${s.replicas}`).join(', ')} on 3 nodes`),
    (err) => abort(err.message),
  );
  const local = `http://127.0.0.1:${config.gateway.port}`;
  untilHealthy(`${local}/health`).then(() => log(`cluster ready at ${local}`));
}
