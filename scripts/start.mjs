// `npm start`: build what changed, validate the configuration, check NATS and Redis (starting local ones that
// are installed but not running), apply migrations, then run the four services as separate
// processes (as in production) with prefixed logs, restarting any that exits. It runs in the
// foreground; SIGINT / SIGTERM / SIGHUP stop everything gracefully, a second signal at once.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './run/build.mjs';
import { parseStartArgs, SERVICES, UsageError } from './start/args.mjs';
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
  ['gateway', 'scheduler'],
  ['agent-executor'],
  ['function-runner'],
  ['nats-server', 'redis-server'],
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
function serviceSpecs(replicas, metricsPort) {
  const specs = [];
  let probes = 0;
  for (const service of SERVICES) {
    for (let i = 1; i <= replicas[service]; i += 1) {
      const env = { ...process.env };
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
const config = loadConfig();
const { maskUrl } = require(join(dist, 'libs/config/src'));
const supervisor = new Supervisor();
let signals = 0;

async function shutdown(reason, code = 0) {
  log(`stopping (${reason}); a second signal kills at once`);
  await supervisor.stop(STOP_ORDER, config.shutdown.timeout + 5_000);
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
const dependencies = await planDependencies(config, root, maskUrl).catch((err) => fail(err.message));
supervisor.start(supervisor.add(dependencies));
if (dependencies.length) {
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
supervisor.start(supervisor.add(serviceSpecs(options.replicas, config.metrics.port)));
