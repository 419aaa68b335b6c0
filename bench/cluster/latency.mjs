import { percentiles } from '../functions/measure.ts';
import {
  chatTurn,
  cpuByProcess,
  cpuSince,
  load,
  machine,
  options,
  psql,
  sleep,
  startModel,
  startShape,
  testing,
} from './shapes.mjs';

const HELP = `node bench/cluster/latency.mjs [--rounds 3] [--turns 200] [--concurrency 16]

The same chat turn (one function call: two model steps of the scripted model, no latency) through
\`npm run cluster\` (via HAProxy) and through \`npm start\` on PostgreSQL, both up at once and measured
in alternating rounds: per round --turns sequential turns on each shape, then (with --concurrency > 0)
as many turns with that many callers at once. npm start uses a database of its own on the cluster's
PostgreSQL (the same server and settings), its own NATS and Redis. CPU per turn is the /proc CPU
of each shape's processes over the round divided by its turns: the services (every dist/apps
process), NATS, Redis, HAProxy and PostgreSQL (the PostgreSQL server is shared; the other shape is
idle meanwhile). Prints Markdown for docs/benchmarks.md. Build first (npm run build); psql on PATH.`;
const option = options(HELP);
const ROUNDS = option('rounds', 3);
const TURNS = option('turns', 200);
const CONCURRENCY = option('concurrency', 16);
const WARMUP = 30;
const IDLE_MS = 10_000;
const ROLES = ['services', 'nats-server', 'redis-server', 'haproxy', 'postgres'];

/** Each process's CPU under both shapes (the cluster's tree holds the shared PostgreSQL). */
function cpuNow(shapes) {
  return Object.fromEntries(shapes.map((s) => [s.name, cpuByProcess(s.pid)]));
}

/** The CPU a round cost `shape`, by role: its own processes, PostgreSQL counted for whichever ran. */
function cpuOf(before, after, shape) {
  const used = Object.fromEntries(Object.keys(after).map((of) => [of, cpuSince(before[of], after[of])]));
  const own = (role, of) => used[of][role] ?? 0;
  return Object.fromEntries(
    ROLES.map((role) => [role, role === 'postgres' ? own(role, 'cluster') : own(role, shape.name)]),
  );
}

async function round(shapes, shape, mode, turns) {
  const started = { load: load(), at: new Date().toISOString().slice(11, 19) };
  const before = cpuNow(shapes);
  const ms = [];
  let next = 0;
  const wallFrom = performance.now();
  const caller = async () => {
    while (next < turns) {
      const i = next++;
      const t = performance.now();
      await chatTurn(shape.base, `call ${mode} ${shape.name} ${i} ${Date.now()}`);
      ms.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: mode === 'sequential' ? 1 : CONCURRENCY }, caller));
  const wallMs = performance.now() - wallFrom;
  const cpu = cpuOf(before, cpuNow(shapes), shape);
  return { shape: shape.name, mode, ...percentiles(ms), wallMs, cpu, started, ended: load() };
}

const fmt = (x, d = 1) => x.toFixed(d);
const total = (cpu) => Object.values(cpu).reduce((s, x) => s + x, 0);

function report(results, idle) {
  const idleLine = idle
    .map((i) => `${i.name} ${fmt(i.cpu.services, 0)} ms/s (services), ${fmt(total(i.cpu), 0)} ms/s (all)`)
    .join('; ');
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; ${ROUNDS} rounds alternating,`,
    `${TURNS} turns a shape per round (one function call each, scripted model without latency).`,
    `CPU at rest, ${IDLE_MS / 1000} s each before the rounds, per second: ${idleLine}; included in the rounds' figures.`,
    '',
    '| round | shape | callers | p50 ms | p99 ms | turns/s | CPU ms/turn: services | NATS | Redis | HAProxy | PostgreSQL | all | load at start → end |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    const c = (role) => fmt(r.cpu[role] / r.n, 2);
    lines.push(
      `| ${r.round} ${r.started.at} | ${r.shape} | ${r.mode === 'sequential' ? 1 : CONCURRENCY} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.n / (r.wallMs / 1000), 0)} | ${c('services')} | ${c('nats-server')} | ${c('redis-server')} | ${c('haproxy')} | ${c('postgres')} | ${fmt(total(r.cpu) / r.n, 2)} | ${r.started.load} → ${r.ended} |`,
    );
  }
  lines.push(
    '',
    '| shape | callers | p50 ms (median of rounds) | p99 ms | CPU ms/turn, services | all processes |',
  );
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: |');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const mode of ['sequential', 'concurrent'])
    for (const name of ['cluster', 'npm start']) {
      const rs = results.filter((r) => r.shape === name && r.mode === mode);
      if (!rs.length) continue;
      lines.push(
        `| ${name} | ${mode === 'sequential' ? 1 : CONCURRENCY} | ${fmt(median(rs.map((r) => r.p50)))} | ${fmt(median(rs.map((r) => r.p99)))} | ${fmt(median(rs.map((r) => r.cpu.services / r.n)), 2)} | ${fmt(median(rs.map((r) => total(r.cpu) / r.n)), 2)} |`,
      );
    }
  return lines.join('\n');
}

const llm = await startModel();
const started = [];
try {
  const cluster = { name: 'cluster', ...(await startShape({ cluster: true, llm })) };
  started.push(cluster);
  psql(cluster, 'CREATE DATABASE onebox');
  const { freePort } = testing();
  const env = {
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${cluster.pg}/onebox`,
    // free local ports: npm start runs its own NATS and Redis there
    NATS_URL: `nats://127.0.0.1:${await freePort()}`,
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
  };
  const oneBox = { name: 'npm start', ...(await startShape({ cluster: false, llm, env })) };
  started.push(oneBox);
  const shapes = [cluster, oneBox];
  for (const shape of shapes)
    for (let i = 0; i < WARMUP; i += 1) await chatTurn(shape.base, `call warm up ${i}`);
  await sleep(2_000);
  // what each shape burns at rest (heartbeats, leases, sweeps, raft): counted in every round too
  const idle = [];
  for (const shape of shapes) {
    const before = cpuNow(shapes);
    await sleep(IDLE_MS);
    const cpu = cpuOf(before, cpuNow(shapes), shape);
    idle.push({
      name: shape.name,
      cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v / (IDLE_MS / 1000)])),
    });
  }
  const results = [];
  for (let r = 1; r <= ROUNDS; r += 1) {
    // who goes first alternates too, so neither always follows the other's garbage
    const order = r % 2 ? shapes : [...shapes].reverse();
    for (const shape of order)
      results.push({ round: r, ...(await round(shapes, shape, 'sequential', TURNS)) });
    if (CONCURRENCY > 0)
      for (const shape of order)
        results.push({ round: r, ...(await round(shapes, shape, 'concurrent', TURNS)) });
    console.error(`round ${r} done, load ${load()}`);
  }
  console.log(report(results, idle));
} finally {
  for (const shape of started.reverse()) await shape.stop();
  await llm.close();
}
