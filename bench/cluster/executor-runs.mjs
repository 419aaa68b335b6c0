import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chatTurn,
  load,
  machine,
  options,
  processTree,
  rssBytes,
  sleep,
  startModel,
  startShape,
  testing,
} from './shapes.mjs';

const HELP = `node bench/cluster/executor-runs.mjs [--levels 250,500,1000,2000] [--hold-s 90] [--rounds 1]

How many runs one agent-executor holds in flight within its memory budget: for each level N, a
fresh \`npm start\` (one executor; its own NATS, Redis and a SQLite file), a few warm-up turns,
then N chat turns sent at once to a scripted model that answers each first step only after
--hold-s seconds, so all N runs wait in the executor. Once the model has received all N requests
(all N runs are in flight), the executor's RSS (/proc VmRSS) is sampled every 100 ms for 3 s and
its highest value kept; also its RSS idle (after the warm-up) and the gateway's. The stack is then
stopped (the held turns are cut). --rounds repeats the levels, each round on fresh stacks.
Prints Markdown for docs/benchmarks.md. Build first (npm run build).`;
const option = options(HELP);
const args = process.argv.slice(2);
const LEVELS = (args.includes('--levels') ? args[args.indexOf('--levels') + 1] : '250,500,1000,2000')
  .split(',')
  .map(Number);
const HOLD_MS = option('hold-s', 90) * 1000;
const ROUNDS = option('rounds', 1);
const MB = 1024 * 1024;
/** The executor's RSS budget with runs in flight (docs/benchmarks.md, Budgets). */
const BUDGET_MB = 300;

function servicePid(shape, service) {
  return processTree(shape.pid).find((p) => p.cmd.includes(`dist/apps/${service}/src/main.js`))?.pid;
}

async function level(n, llm) {
  const { freePort } = testing();
  const env = {
    NATS_URL: `nats://127.0.0.1:${await freePort()}`,
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    DATABASE_URL: `file:${join(mkdtempSync(join(tmpdir(), 'bench-runs-')), 'bench.db')}`,
    // a cut turn must not wait out the hold when the stack stops
    SHUTDOWN_TIMEOUT: '2s',
  };
  llm.setScript({ fallback: 'done' });
  const shape = await startShape({ cluster: false, llm, env });
  const loadAtStart = load();
  try {
    const executor = servicePid(shape, 'agent-executor');
    const gateway = servicePid(shape, 'gateway');
    for (let i = 0; i < 20; i += 1) await chatTurn(shape.base, `warm up ${i}`);
    await sleep(2_000);
    const idle = rssBytes(executor);
    llm.setScript({ fallback: { text: 'done', latencyMs: HOLD_MS } });
    llm.clearRequests();
    const sentAt = Date.now();
    // each held turn is cut when the stack stops: its error is expected, not a failure
    for (let i = 0; i < n; i += 1) chatTurn(shape.base, `hold ${i}`).catch(() => undefined);
    while (llm.requests().length < n) {
      if (Date.now() - sentAt > HOLD_MS - 10_000)
        throw new Error(`only ${llm.requests().length} of ${n} runs reached the model in time`);
      await sleep(200);
    }
    const rampS = (Date.now() - sentAt) / 1000;
    const peak = { executor: 0, gateway: 0 };
    for (let t = 0; t < 30; t += 1) {
      peak.executor = Math.max(peak.executor, rssBytes(executor));
      peak.gateway = Math.max(peak.gateway, rssBytes(gateway));
      await sleep(100);
    }
    return { n, idle, ...peak, rampS, loadAtStart, loadAtEnd: load() };
  } finally {
    await shape.stop();
  }
}

const fmt = (bytes) => (bytes / MB).toFixed(0);

function report(results) {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; each level on a fresh \`npm start\`,`,
    `the first model step held ${HOLD_MS / 1000} s; RSS the highest of 30 samples once all N runs were in flight.`,
    '',
    '| runs in flight | executor idle | executor with N in flight | per run, from idle | gateway with N | all N in flight after | load at start → end |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results)
    lines.push(
      `| ${r.n} | ${fmt(r.idle)} MB | ${fmt(r.executor)} MB | ${((r.executor - r.idle) / r.n / 1024).toFixed(0)} KB | ${fmt(r.gateway)} MB | ${r.rampS.toFixed(1)} s | ${r.loadAtStart} → ${r.loadAtEnd} |`,
    );
  // a straight line through every (N, RSS) point: its slope is what one more run holds, without
  // what the first turns load once; where it meets the budget is how many runs fit
  const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const n0 = mean(results.map((r) => r.n));
  const y0 = mean(results.map((r) => r.executor));
  const slope =
    results.reduce((sum, r) => sum + (r.n - n0) * (r.executor - y0), 0) /
    results.reduce((sum, r) => sum + (r.n - n0) ** 2, 0);
  const intercept = y0 - slope * n0;
  lines.push(
    '',
    `Least squares over the ${results.length} points: ${fmt(intercept)} MB + ${(slope / 1024).toFixed(1)} KB a run in flight; ` +
      `${BUDGET_MB} MB is reached at ~${Math.round((BUDGET_MB * MB - intercept) / slope)} runs.`,
  );
  return lines.join('\n');
}

// it records every request: their count says how many runs are waiting on it
const llm = await startModel(0, { maxRecordedRequests: Math.max(...LEVELS) + 100 });
try {
  const results = [];
  for (let r = 0; r < ROUNDS; r += 1)
    for (const n of LEVELS) {
      results.push(await level(n, llm));
      const last = results.at(-1);
      console.error(
        `${n} in flight: executor ${fmt(last.executor)} MB (idle ${fmt(last.idle)} MB), load ${load()}`,
      );
    }
  console.log(report(results));
} finally {
  await llm.close();
}
