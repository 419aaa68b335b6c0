// What one chat turn and one function call cost the cluster's servers, counted, not estimated:
// NATS messages and bytes on the three nodes, PostgreSQL statements (pg_stat_statements), Redis
// commands (INFO commandstats) and bytes (INFO stats). Run `node bench/cluster/counts.mjs --help` for how.
import { execFileSync } from 'node:child_process';
import {
  chatTurn,
  load,
  machine,
  options,
  psql,
  sleep,
  startModel,
  startShape,
  streamedTurn,
} from './shapes.mjs';

const HELP = `node bench/cluster/counts.mjs [--turns 100] [--idle-s 20]

Starts \`npm run cluster\` with the scripted model (no latency), lets it settle, counts an idle
stretch of --idle-s seconds, then --turns plain turns, then --turns turns that each call one
function, then as many of those streamed (server-sent events), one at a time, each less the idle
rate over its duration. Counted on each of the three NATS nodes: what the services' connections
published and were delivered (/connz, client connections only), what the nodes sent each other
(/routez out: requests to a service on another node, JetStream's R3 replication, each message
counted once, by its sender) and /varz for comparison (which counts a routed message again at the
node it enters). Build first (npm run build); psql and redis-cli on PATH.
Prints Markdown for docs/benchmarks.md ("Cluster: servers' work per turn").`;
const option = options(HELP);
const TURNS = option('turns', 100);
const IDLE_MS = option('idle-s', 20) * 1000;

const json = async (url) => (await fetch(url)).json();

/** Each counter summed over the three nodes; `by` are the clients' publications by connection name. */
async function natsCounters(monitors) {
  const c = {
    pub: 0,
    pubBytes: 0,
    deliver: 0,
    deliverBytes: 0,
    route: 0,
    routeBytes: 0,
    varzIn: 0,
    varzOut: 0,
  };
  const by = {};
  for (const url of monitors) {
    const varz = await json(`${url}/varz`);
    c.varzIn += varz.in_msgs;
    c.varzOut += varz.out_msgs;
    const connz = await json(`${url}/connz?limit=100000`);
    for (const conn of connz.connections ?? []) {
      c.pub += conn.in_msgs;
      c.pubBytes += conn.in_bytes;
      c.deliver += conn.out_msgs;
      c.deliverBytes += conn.out_bytes;
      const name = (conn.name ?? '?').replace(/[-#:][^-#:]*\d[^-#:]*$/g, '');
      by[name] = (by[name] ?? 0) + conn.in_msgs;
    }
    for (const route of (await json(`${url}/routez`)).routes ?? []) {
      c.route += route.out_msgs;
      c.routeBytes += route.out_bytes;
    }
  }
  return { ...c, by };
}

async function counters(cluster) {
  const nats = await natsCounters(cluster.monitors);
  const pg = Number(psql(cluster, 'SELECT coalesce(sum(calls),0) FROM pg_stat_statements'));
  const stats = execFileSync('redis-cli', ['-p', cluster.redis, 'INFO', 'commandstats'], {
    encoding: 'utf8',
  });
  const redis = [...stats.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  // what the clients sent Redis and what it answered (INFO stats; replication has none here)
  const net = execFileSync('redis-cli', ['-p', cluster.redis, 'INFO', 'stats'], { encoding: 'utf8' });
  const redisIn = Number(/total_net_input_bytes:(\d+)/.exec(net)[1]);
  const redisOut = Number(/total_net_output_bytes:(\d+)/.exec(net)[1]);
  return { ...nats, pg, redis, redisBytes: redisIn + redisOut };
}

/** b − a, field by field (one level down for `by`). */
function diff(a, b) {
  const out = {};
  for (const k of Object.keys(b)) {
    if (typeof b[k] === 'object') out[k] = diff(a[k] ?? {}, b[k]);
    else out[k] = b[k] - (a[k] ?? 0);
  }
  return out;
}

/** `d` per turn less the idle rate over `ms`. */
function perTurn(d, idle, ms, turns) {
  const out = {};
  for (const k of Object.keys(d)) {
    if (typeof d[k] === 'object') out[k] = perTurn(d[k], idle[k] ?? {}, ms, turns);
    else out[k] = (d[k] - ((idle[k] ?? 0) / IDLE_MS) * ms) / turns;
  }
  return out;
}

/** Streamed turns whose events lacked a step's (a `tool_result`) before their `run_end`. */
const gaps = [];

async function turns(cluster, n, message, turn = chatTurn) {
  const started = Date.now();
  for (let i = 0; i < n; i += 1) {
    const events = await turn(cluster.base, `${message} ${i} ${started}`);
    if (Array.isArray(events) && !events.includes('tool_result')) gaps.push(events.join(' '));
  }
  return Date.now() - started;
}

const fmt = (x, d = 1) => x.toFixed(d);
const kib = (bytes) => `${fmt(bytes / 1024, 2)} KiB`;

function report({ idle, plain, withCall, streamed, loads }) {
  const call = diff(plain, withCall);
  const s = IDLE_MS / 1000;
  const row = (name, r) =>
    `| ${name} | ${fmt(r.pub)} | ${kib(r.pubBytes)} | ${fmt(r.deliver)} | ${kib(r.deliverBytes)} | ${fmt(r.route)} | ${kib(r.routeBytes)} | ${fmt(r.varzIn)} | ${fmt(r.pg)} | ${fmt(r.redis)} | ${kib(r.redisBytes)} |`;
  const idleRow = `| idle, per second (subtracted) | ${fmt(idle.pub / s)} | ${kib(idle.pubBytes / s)} | ${fmt(idle.deliver / s)} | ${kib(idle.deliverBytes / s)} | ${fmt(idle.route / s)} | ${kib(idle.routeBytes / s)} | ${fmt(idle.varzIn / s)} | ${fmt(idle.pg / s)} | ${fmt(idle.redis / s)} | ${kib(idle.redisBytes / s)} |`;
  const names = Object.keys(withCall.by).filter(
    (n) => Math.abs(withCall.by[n]) >= 0.05 || Math.abs(plain.by[n] ?? 0) >= 0.05,
  );
  return [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; load ${loads.join(' → ')} (1, 5, 15 min: start, end);`,
    `${TURNS} turns each, one at a time; an idle stretch of ${s} s measured first, its rate subtracted.`,
    '',
    '| per | NATS published by clients | bytes | delivered to clients | bytes | between nodes (routes) | bytes | /varz in (all nodes) | PostgreSQL statements | Redis commands | Redis bytes (in + out) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    row('chat turn (one model step, no call)', plain),
    row('chat turn with one function call (two steps)', withCall),
    row('function call (the difference)', call),
    row('the same turn streamed (SSE: run events in RUN_EVENTS, read by the gateway)', streamed),
    row('streaming it (the difference)', diff(withCall, streamed)),
    idleRow,
    '',
    `Streamed turns whose events had no tool_result before run_end: ${gaps.length} of ${TURNS + 5}${gaps.length ? ` (${gaps[0]})` : ''}.`,
    '',
    `Published per turn by connection name (plain / with a call): ${names
      .map((n) => `${n} ${fmt(plain.by[n] ?? 0)} / ${fmt(withCall.by[n])}`)
      .join(', ')}.`,
  ].join('\n');
}

const llm = await startModel();
const cluster = await startShape({ cluster: true, llm });
try {
  psql(cluster, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const loads = [load()];
  await turns(cluster, 20, 'warm up');
  await turns(cluster, 5, 'call warm up');
  await turns(cluster, 5, 'call warm up', streamedTurn);
  await sleep(3_000);
  const idleFrom = await counters(cluster);
  await sleep(IDLE_MS);
  const idle = diff(idleFrom, await counters(cluster));
  const measure = async (message, turn) => {
    const before = await counters(cluster);
    const ms = await turns(cluster, TURNS, message, turn);
    return perTurn(diff(before, await counters(cluster)), idle, ms, TURNS);
  };
  const plain = await measure('hello');
  const withCall = await measure('call please');
  const streamed = await measure('call streamed', streamedTurn);
  loads.push(load());
  console.log(report({ idle, plain, withCall, streamed, loads }));
} finally {
  await cluster.stop();
  await llm.close();
}
