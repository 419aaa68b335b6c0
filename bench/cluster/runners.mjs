import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles, throughput } from '../functions/measure.ts';
import { load, machine, options, ROOT, sleep, testing } from './shapes.mjs';

const HELP = `node bench/cluster/runners.mjs [--replicas 1,2,4] [--rounds 3] [--wait-ms 100] [--concurrency 16] [--calls 2000] [--in-flight 0]

Function-runner scaling on I/O-bound work: a custom function (sandboxed, as deployed) that awaits
--wait-ms, called through FunctionClient on a private nats-server by --in-flight callers at once
(0: twice the slots of the most replicas, so every replica is kept full), --calls calls a
measurement after 300 unmeasured ones. Each runner runs with FUNCTIONS_CONCURRENCY and
FUNCTIONS_SANDBOX_WORKERS = --concurrency, so one replica's ceiling is concurrency × 1000 / wait-ms
calls/s. Each round measures every replica count (runners started or stopped between, ascending in
odd rounds, descending in even ones). Prints Markdown for docs/benchmarks.md. Build first (npm run build).`;
const option = options(HELP);
const args = process.argv.slice(2);
const REPLICAS = (args.includes('--replicas') ? args[args.indexOf('--replicas') + 1] : '1,2,4')
  .split(',')
  .map(Number);
const ROUNDS = option('rounds', 3);
const WAIT_MS = option('wait-ms', 100);
const CONCURRENCY = option('concurrency', 16);
const CALLS = option('calls', 2000);
const IN_FLIGHT = option('in-flight', 0) || 2 * CONCURRENCY * Math.max(...REPLICAS);
const ns = `b${Date.now().toString(36)}`;
const dist = createRequire(join(ROOT, 'package.json'));
const { Bus } = dist(join(ROOT, 'dist/libs/bus/src'));
const { Routes } = dist(join(ROOT, 'dist/libs/contracts/src'));
const { FunctionClient } = dist(join(ROOT, 'dist/libs/functions/src'));

function functionFolder() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bench-runners-')));
  writeFileSync(
    join(dir, 'wait.mjs'),
    `export default { name: '${ns}_wait', description: 'waits', parameters: { type: 'object', properties: {} }, execute() { return new Promise((r) => setTimeout(() => r({ message: 'ok' }), ${WAIT_MS})); } };`,
  );
  return dir;
}

/** Waits until exactly `count` runners offer the function. */
async function servedBy(bus, count) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const catalogs = await bus.gather(Routes.fnCatalog, 300);
    const serving = catalogs.filter((c) => c.functions.some((f) => f.name === `${ns}_wait`)).length;
    if (serving === count) return;
    if (Date.now() > deadline) throw new Error(`${serving} runners serve the function, not ${count}`);
    await sleep(200);
  }
}

const fmt = (x, d = 0) => x.toFixed(d);

function report(results) {
  const ceiling = (CONCURRENCY * 1000) / WAIT_MS;
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; a function awaiting ${WAIT_MS} ms,`,
    `${CONCURRENCY} slots a runner, ${IN_FLIGHT} calls in flight, ${CALLS} calls a measurement, ${ROUNDS} rounds.`,
    '',
    '| runners | calls/s, median | each round | ceiling | × one runner (median of rounds) | call p50 / p99 ms | load at start → end of each |',
    '| ---: | ---: | --- | ---: | ---: | --- | --- |',
  ];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const k of REPLICAS) {
    const rs = results.filter((r) => r.replicas === k);
    const ratios = rs.map(
      (r) => r.rate / results.find((o) => o.round === r.round && o.replicas === REPLICAS[0]).rate,
    );
    lines.push(
      `| ${k} | ${fmt(median(rs.map((r) => r.rate)))} | ${rs.map((r) => fmt(r.rate)).join(', ')} | ${fmt(ceiling * k)} | ×${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${rs.map((r) => `${fmt(r.p50, 0)} / ${fmt(r.p99, 0)}`).join(', ')} | ${rs.map((r) => `${r.loads[0]} → ${r.loads[1]}`).join('; ')} |`,
    );
  }
  return lines.join('\n');
}

const { startNatsServer, startService } = testing();
const nats = await startNatsServer();
const bus = await Bus.connect({ url: nats.url, name: 'bench-client' });
const runners = [];
try {
  // the call records a runner sends (an executor stores them)
  bus.serve(Routes.fnCallsRecord, ({ calls }) => ({ recorded: calls.length }));
  await bus.flush();
  const client = new FunctionClient(bus);
  const env = {
    NATS_URL: nats.url,
    FUNCTIONS_DIR: functionFolder(),
    FUNCTIONS_CONCURRENCY: String(CONCURRENCY),
    FUNCTIONS_SANDBOX_WORKERS: String(CONCURRENCY),
  };
  const ms = [];
  const call = async () => {
    const t = performance.now();
    const reply = await client.call(`${ns}_wait`, {}, { timeoutMs: 120_000 });
    if (reply.status !== 'success') throw new Error(`call failed: ${JSON.stringify(reply).slice(0, 300)}`);
    ms.push(performance.now() - t);
  };
  const results = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order = round % 2 ? REPLICAS : [...REPLICAS].reverse();
    for (const k of order) {
      while (runners.length < k) runners.push(await startService('function-runner', env));
      while (runners.length > k) await runners.pop().stop();
      await servedBy(bus, k);
      await throughput(call, 300, IN_FLIGHT);
      ms.length = 0;
      const loads = [load()];
      const rate = await throughput(call, CALLS, IN_FLIGHT);
      loads.push(load());
      const { p50, p99 } = percentiles(ms);
      results.push({ round, replicas: k, rate, p50, p99, loads });
      console.error(`round ${round}, ${k} runners: ${fmt(rate)} calls/s, load ${load()}`);
    }
  }
  console.log(report(results));
} finally {
  await Promise.all(runners.map((r) => r.stop()));
  await bus.drain();
  await nats.stop();
}
