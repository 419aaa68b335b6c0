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
    const turns = Array.from({ length: n }, (_, i) =>
      chatTurn(shape.base, `hold ${i}`).catch(() => undefined),
    );
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
    void turns;
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
  // the slope between levels: what one more run costs, without what the first turns load once
  const sorted = [...results].sort((a, b) => a.n - b.n);
  const slopes = [];
  for (let i = 1; i < sorted.length; i += 1)
    if (sorted[i].n !== sorted[i - 1].n)
      slopes.push(
        `${sorted[i - 1].n} → ${sorted[i].n}: ${((sorted[i].executor - sorted[i - 1].executor) / (sorted[i].n - sorted[i - 1].n) / 1024).toFixed(0)} KB`,
      );
  lines.push('', `Per run between levels (executor): ${slopes.join(', ')}.`);
  return lines.join('\n');
}

const llm = await startModel();
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
