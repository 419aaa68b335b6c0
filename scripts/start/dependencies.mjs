// NATS and Redis for `npm start`: reachable ones are used as they are; local ones that are not
// running are started from the installed nats-server / redis-server, with their data in ./data.
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { which } from './programs.mjs';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const HOW_TO =
  "start them with 'docker compose up -d nats redis', or install them " +
  "('apt-get install nats-server redis-server' / 'brew install nats-server redis') and npm start runs them";

const SERVERS = [
  {
    name: 'NATS',
    key: 'NATS_URL',
    binary: 'nats-server',
    defaultPort: 4222,
    url: (config) => config.nats.url,
    args: (host, port, dir) => [
      '-a',
      host,
      '-p',
      port,
      '-js',
      '-sd',
      dir,
      '-l',
      join(dir, 'nats-server.log'),
    ],
  },
  {
    name: 'Redis',
    key: 'REDIS_URL',
    binary: 'redis-server',
    defaultPort: 6379,
    url: (config) => config.redis.url,
    args: (host, port, dir) => [
      '--bind',
      host,
      '--port',
      port,
      '--dir',
      dir,
      '--logfile',
      join(dir, 'redis-server.log'),
    ],
  },
];

export function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

const installed = (command) => which(command) !== undefined;

/** Linux: the kernel sends SIGTERM to a server whose supervisor dies, even by kill -9. */
const parentDeathSignal = installed('setpriv') ? ['setpriv', '--pdeathsig', 'SIGTERM', '--'] : [];

/**
 * Checks NATS and Redis. Returns the servers npm start must run itself, as process specs for the
 * supervisor; throws an Error with a one-line message when one can be neither reached nor started.
 */
export async function planDependencies(config, root, maskUrl) {
  const missing = [];
  for (const server of SERVERS) {
    // a cluster's list: npm start checks (and would start) the first server
    const url = new URL(server.url(config).split(',')[0]);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || server.defaultPort);
    if (!(await reachable(host, port)))
      missing.push({
        ...server,
        where: `${server.name} at ${maskUrl(url.href)} (${server.key})`,
        host,
        port,
      });
  }
  const remote = missing.filter((dep) => !LOCAL_HOSTS.has(dep.host));
  if (remote.length)
    throw new Error(`cannot reach ${remote.map((d) => d.where).join(' or ')}: check the URL and the server`);
  const absent = missing.filter((dep) => !installed(dep.binary));
  if (absent.length) throw new Error(`cannot reach ${absent.map((d) => d.where).join(' or ')}: ${HOW_TO}`);
  return missing.map((dep) => {
    const dir = join(root, 'data', dep.binary.split('-')[0]);
    mkdirSync(dir, { recursive: true });
    const [command, ...args] = [
      ...parentDeathSignal,
      dep.binary,
      ...dep.args(dep.host, String(dep.port), dir),
    ];
    return {
      name: dep.binary,
      command,
      args,
      cwd: root,
      env: process.env,
      host: dep.host,
      port: dep.port,
      dir,
    };
  });
}

/** Waits until each server started here accepts connections. */
export async function waitForDependencies(started, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (const dep of started) {
    while (!(await reachable(dep.host, dep.port))) {
      if (Date.now() > deadline)
        throw new Error(`${dep.name} did not start on ${dep.host}:${dep.port} (its log is in ${dep.dir})`);
      await sleep(100);
    }
  }
}
