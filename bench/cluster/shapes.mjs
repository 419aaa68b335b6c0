// The two shapes the cluster benches drive, started as a user starts them: `npm run cluster`
// (scripts/start.mjs --cluster: three NATS nodes, its own PostgreSQL and Redis, HAProxy over two
// gateways) and `npm start` (one of each service, its own NATS and Redis), each with the scripted
// model and one custom function. Also what /proc says of a shape's processes, and one chat turn.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { untilHealthy } from '../../scripts/start/cluster.mjs';
import { processTree } from '../common/process-tree.mjs';

export { processTree };

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'package.json'));
export const testing = () => require(join(ROOT, 'dist/libs/testing/src'));
export const ADMIN = 'ac_bench_cluster_admin_key_0123456789abcd';
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `--name value` from the command line, as a number; `--help` prints `help` and exits. */
export function options(help) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  return (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? Number(args[at + 1]) : fallback;
  };
}

/** The machine and its load now, for the line written beside each figure. */
export function machine() {
  return `${cpus().length} × ${cpus()[0].model.trim()}, Node ${process.version}`;
}
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** The scripted model: a message with "call" asks for the no-op function once, then answers; `more`: its other options. */
export function startModel(latencyMs = 0, more = {}) {
  return testing().startScriptedLlm({
    latencyMs,
    ...more,
    script: {
      rules: [{ match: 'call', reply: { toolCalls: [{ name: 'bench_noop', arguments: {} }] }, times: 1e9 }],
      fallback: 'done',
    },
  });
}

function workFolder() {
  const work = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  // the function must be allowed, or a turn's call is refused (`forbidden`) before it reaches a runner
  writeFileSync(
    join(work, 'agentchassis.yaml'),
    'agents:\n  - name: helper\n    protocol: native\n    allowed_tools: [bench_noop]\n',
  );
  writeFileSync(
    join(work, 'noop.mjs'),
    "export default { name: 'bench_noop', description: 'does nothing', parameters: { type: 'object', properties: {} }, async execute() { return { message: 'ok' }; } };",
  );
  return work;
}

/**
 * Starts `npm run cluster` (`cluster: true`) or `npm start` from dist, with the scripted model at
 * `llm`; `env` adds to the services' environment (npm start's NATS_URL, REDIS_URL, DATABASE_URL).
 */
export async function startShape({ cluster, llm, env = {} }) {
  const { freePort } = testing();
  const port = await freePort();
  const work = workFolder();
  let output = '';
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--no-build', ...(cluster ? ['--cluster'] : [])],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        AC_CONFIG: join(work, 'agentchassis.yaml'),
        FUNCTIONS_DIR: work,
        AC_ADMIN_KEY: ADMIN,
        LLM_PROVIDER: 'openai-compatible',
        LLM_BASE_URL: llm.url,
        LLM_MODEL: 'scripted-model',
        RATE_LIMIT_PER_MINUTE: '100000000',
        MAX_CONCURRENT_RUNS_PER_KEY: '100000',
        DAILY_TOKEN_QUOTA_PER_KEY: '1000000000000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const ready = cluster
    ? (async () => {
        while (!/cluster ready at/.test(output) || !/JetStream: /.test(output)) await sleep(300);
      })()
    : untilHealthy(`${base}/health`);
  const timeout = sleep(180_000).then(() => 'timeout');
  const result = await Promise.race([ready, timeout, exited.then(() => 'exited')]);
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  if (result) {
    await stop();
    throw new Error(`${cluster ? 'the cluster' : 'npm start'} did not start (${result}):\n${output}`);
  }
  const shape = { base, pid: child.pid, output: () => output, stop };
  if (!cluster) return shape;
  const dir = /cluster folder (\S+)/.exec(output)[1];
  shape.monitors = [1, 2, 3].map(
    (n) => `http://${/http: (\S+)/.exec(readFileSync(join(dir, `nats-${n}.conf`), 'utf8'))[1]}`,
  );
  shape.pg = /postgres on 127\.0\.0\.1:(\d+)/.exec(output)[1];
  shape.redis = /redis on 127\.0\.0\.1:(\d+)/.exec(output)[1];
  return shape;
}

/** One SQL statement on the cluster's own PostgreSQL (psql on PATH); returns its output. */
export function psql(shape, sql, database = 'postgres') {
  const args = ['-h', '127.0.0.1', '-p', shape.pg, '-U', 'postgres', '-d', database, '-tAc', sql];
  return execFileSync('psql', args, { encoding: 'utf8' }).trim();
}

/** What a process is, for the CPU columns: a service (any dist/apps process and its sandboxes), or its server. */
export function role(cmd) {
  if (/dist\/apps\//.test(cmd)) return 'services';
  const server = /(nats-server|redis-server|haproxy|postgres)/.exec(cmd)?.[1];
  return server ?? 'other';
}

/** CPU ms used so far by each process under `rootPid`, with its role; `cpuSince` of two is a round's. */
export function cpuByProcess(rootPid) {
  return new Map(processTree(rootPid).map((p) => [p.pid, { role: role(p.cmd), cpuMs: p.cpuMs }]));
}

/**
 * The CPU each role used between two `cpuByProcess`, process by process: one that exited between
 * (a PostgreSQL autovacuum worker, a sandbox) must not take its whole past CPU off the sum.
 */
export function cpuSince(before, after) {
  const sums = {};
  for (const [pid, now] of after) {
    const used = now.cpuMs - (before.get(pid)?.cpuMs ?? 0);
    sums[now.role] = (sums[now.role] ?? 0) + used;
  }
  return sums;
}

/** Resident memory of a process now, in bytes. */
export function rssBytes(pid) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** One chat turn; a message with "call" must have called the function, or it would be a plain turn. */
export async function chatTurn(base, message) {
  const res = await fetch(`${base}/api/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message, agent: 'helper' }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${message}: ${res.status} ${text.slice(0, 400)}`);
  const body = JSON.parse(text);
  // a turn meant to call the function must have run it: a refused call costs far less
  if (message.startsWith('call') && body.function_calls?.[0]?.status !== 'success')
    throw new Error(`${message} did not run the function: ${text.slice(0, 400)}`);
  return body;
}

/**
 * The same turn streamed (server-sent events, `stream: true`), read to its `run_end`, whose reply
 * must show the call run; returns the events' names in order.
 */
export async function streamedTurn(base, message) {
  const res = await fetch(`${base}/api/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message, agent: 'helper', stream: true }),
  });
  const text = await res.text();
  const end = /event: run_end\ndata: (.*)/.exec(text)?.[1];
  if (res.status !== 200 || !end) throw new Error(`${message}: ${res.status} ${text.slice(0, 400)}`);
  if (message.startsWith('call') && JSON.parse(end).function_calls?.[0]?.status !== 'success')
    throw new Error(`${message} did not run the function: ${text.slice(0, 600)}`);
  return [...text.matchAll(/^event: (\S+)/gm)].map((m) => m[1]);
}
