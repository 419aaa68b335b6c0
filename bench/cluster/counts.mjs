// What one chat turn and one function call cost the cluster's servers, counted, not estimated:
// NATS messages published by clients (/varz less /routez of the three nodes), PostgreSQL statements
// (pg_stat_statements), Redis commands (INFO commandstats). It starts `npm run cluster` with the
// scripted model (no latency), lets it settle, counts an idle stretch (heartbeats, pings) to
// subtract, then N plain turns, then N turns that each call one function.
// Build first, then from the repo root (psql and redis-cli on PATH):
//   npm run build && node bench/cluster/counts.mjs [--turns 100]
// Prints a Markdown table for docs/benchmarks.md ("Cluster: servers' work per turn").
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'package.json'));
const { startScriptedLlm, freePort } = require(join(ROOT, 'dist/libs/testing/src'));
const at = process.argv.indexOf('--turns');
const TURNS = at >= 0 ? Number(process.argv[at + 1]) : 100;
const ADMIN = 'ac_bench_cluster_admin_key_0123456789abcd';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startCluster(llm) {
  const port = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  writeFileSync(join(work, 'agentchassis.yaml'), 'agents:\n  - name: helper\n    protocol: native\n');
  writeFileSync(
    join(work, 'noop.mjs'),
    "export default { name: 'bench_noop', description: 'does nothing', parameters: { type: 'object', properties: {} }, async execute() { return { message: 'ok' }; } };",
  );
  let output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs', '--cluster', '--no-build'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      AC_CONFIG: join(work, 'agentchassis.yaml'),
      FUNCTIONS_DIR: work,
      AC_ADMIN_KEY: ADMIN,
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  for (let waited = 0; !/cluster ready at/.test(output) || !/JetStream: /.test(output); waited += 500) {
    if (waited > 180_000 || child.exitCode !== null) throw new Error(`the cluster did not start:\n${output}`);
    await sleep(500);
  }
  const dir = /cluster folder (\S+)/.exec(output)[1];
  const monitors = [1, 2, 3].map(
    (n) => `http://${/http: (\S+)/.exec(readFileSync(join(dir, `nats-${n}.conf`), 'utf8'))[1]}`,
  );
  const pg = /postgres on 127\.0\.0\.1:(\d+)/.exec(output)[1];
  const redis = /redis on 127\.0\.0\.1:(\d+)/.exec(output)[1];
  return { base: `http://127.0.0.1:${port}`, monitors, pg, redis, stop: () => child.kill('SIGTERM') };
}

async function counters(cluster) {
  // what clients published: each server's inbound messages less those that came over its routes
  let nats = 0;
  let natsBytes = 0;
  for (const url of cluster.monitors) {
    const varz = await (await fetch(`${url}/varz`)).json();
    const routez = await (await fetch(`${url}/routez`)).json();
    nats += varz.in_msgs;
    natsBytes += varz.in_bytes;
    for (const route of routez.routes ?? []) {
      nats -= route.in_msgs;
      natsBytes -= route.in_bytes;
    }
  }
  const pg = Number(
    execFileSync(
      'psql',
      [
        '-h',
        '127.0.0.1',
        '-p',
        cluster.pg,
        '-U',
        'postgres',
        '-tAc',
        'SELECT coalesce(sum(calls),0) FROM pg_stat_statements',
      ],
      {
        encoding: 'utf8',
      },
    ).trim(),
  );
  const stats = execFileSync('redis-cli', ['-p', cluster.redis, 'INFO', 'commandstats'], {
    encoding: 'utf8',
  });
  const redis = [...stats.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { nats, natsBytes, pg, redis };
}

const diff = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

async function turns(cluster, n, message) {
  const started = Date.now();
  for (let i = 0; i < n; i += 1) {
    const res = await fetch(`${cluster.base}/api/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: `${message} ${i}`, agent: 'helper' }),
    });
    if (res.status !== 200) throw new Error(`turn ${i}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    // a turn meant to call the function must have called it, or its counts would be a plain turn's
    if (message.startsWith('call') && !body.function_calls?.length)
      throw new Error(`turn ${i} called no function: ${JSON.stringify(body).slice(0, 400)}`);
  }
  return Date.now() - started;
}

const llm = await startScriptedLlm({
  script: {
    rules: [
      { match: 'call', reply: { toolCalls: [{ name: 'bench_noop', arguments: {} }] }, times: 1_000_000 },
    ],
    fallback: 'done',
  },
});
const cluster = await startCluster(llm);
try {
  execFileSync('psql', [
    '-h',
    '127.0.0.1',
    '-p',
    cluster.pg,
    '-U',
    'postgres',
    '-qc',
    'CREATE EXTENSION IF NOT EXISTS pg_stat_statements',
  ]);
  await turns(cluster, 20, 'warm up');
  await turns(cluster, 5, 'call warm up');
  await sleep(3_000);
  const idleFrom = await counters(cluster);
  const idleMs = 10_000;
  await sleep(idleMs);
  const idle = diff(idleFrom, await counters(cluster));
  const perMs = (field, ms) => (idle[field] / idleMs) * ms;
  const measure = async (message) => {
    const before = await counters(cluster);
    const ms = await turns(cluster, TURNS, message);
    const d = diff(before, await counters(cluster));
    return Object.fromEntries(Object.keys(d).map((k) => [k, (d[k] - perMs(k, ms)) / TURNS]));
  };
  const plain = await measure('hello');
  const withCall = await measure('call please');
  const row = (name, r) =>
    `| ${name} | ${r.nats.toFixed(1)} | ${(r.natsBytes / 1024).toFixed(1)} KiB | ${r.pg.toFixed(1)} | ${r.redis.toFixed(1)} |`;
  const call = diff(plain, withCall);
  console.log(
    [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0].model}, load ${loadavg()[0].toFixed(1)} at the end; ${TURNS} turns each, one at a time; idle traffic (${(idle.nats / (idleMs / 1000)).toFixed(1)} NATS msgs/s, ${(idle.pg / (idleMs / 1000)).toFixed(1)} statements/s, ${(idle.redis / (idleMs / 1000)).toFixed(1)} Redis commands/s) subtracted.`,
      '',
      '| per | NATS messages (published) | NATS bytes | PostgreSQL statements | Redis commands |',
      '| --- | ---: | ---: | ---: | ---: |',
      row('chat turn (one model step, no call)', plain),
      row('chat turn with one function call (two steps)', withCall),
      row('function call (the difference)', call),
    ].join('\n'),
  );
} finally {
  cluster.stop();
  await llm.close();
}
