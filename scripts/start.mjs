// `npm start`: build if needed, validate the configuration, check NATS and Redis, apply
// migrations, then run the four services as separate processes (as in production) with
// prefixed logs. Ctrl-C stops them all.
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SERVICES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'];
const COLORS = [36, 35, 33, 32];
const tty = process.stdout.isTTY;

function fail(message) {
  console.error(`agentchassis: ${message}`);
  process.exit(1);
}

function build() {
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    fail('the build failed (see above)');
  }
}

function loadConfig() {
  const { loadConfig: load, ConfigError } = require(join(root, 'dist/libs/config/src'));
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

function reachable(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || defaultPort),
      timeout: 2000,
    });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function checkDependencies(config) {
  const { maskUrl } = require(join(root, 'dist/libs/config/src'));
  if (!(await reachable(config.nats.url, 4222))) {
    fail(
      `cannot reach NATS at ${maskUrl(config.nats.url)} (NATS_URL): start it with 'docker compose up -d nats' or 'nats-server -js'`,
    );
  }
  if (!(await reachable(config.redis.url, 6379))) {
    fail(
      `cannot reach Redis at ${maskUrl(config.redis.url)} (REDIS_URL): start it with 'docker compose up -d redis' or 'redis-server'`,
    );
  }
}

async function migrate(config) {
  const { Migrator } = require(join(root, 'dist/libs/persistence/src'));
  try {
    const migrator = await Migrator.open(config.database.url, root);
    const applied = await migrator.deploy();
    await migrator.close();
    if (applied.length) console.log(`agentchassis: applied migrations ${applied.join(', ')}`);
  } catch (err) {
    fail(`database migration failed (DATABASE_URL): ${err?.message ?? err}`);
  }
}

function prefixLines(stream, label, out) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop();
    for (const line of lines) out.write(`${label} ${line}\n`);
  });
  stream.on('end', () => rest && out.write(`${label} ${rest}\n`));
}

function run() {
  const width = Math.max(...SERVICES.map((s) => s.length));
  let stopping = false;
  const children = SERVICES.map((name, i) => {
    const label = tty ? `\x1b[${COLORS[i]}m${name.padEnd(width)} |\x1b[0m` : `${name.padEnd(width)} |`;
    // The same V8 flag as the images (deploy/Dockerfile): a small young generation, less idle RSS.
    const child = spawn(
      process.execPath,
      ['--max-semi-space-size=2', join(root, 'dist/apps', name, 'src/main.js')],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    prefixLines(child.stdout, label, process.stdout);
    prefixLines(child.stderr, label, process.stderr);
    child.on('exit', (code, signal) => {
      if (!stopping) console.error(`${label} exited (${signal ?? `code ${code}`})`);
    });
    return child;
  });
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`agentchassis: stopping (${signal})`);
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r))))).then(
    () => process.exit(stopping ? 0 : 1),
  );
}

build();
const config = loadConfig();
await checkDependencies(config);
await migrate(config);
run();
