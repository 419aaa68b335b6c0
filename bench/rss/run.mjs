// Idle RSS of each service with tracing on (budgets in docs/benchmarks.md). Run after `npm run build`:
//   node_modules/.bin/node bench/rss/run.mjs [--idle-seconds 20]
// Needs NATS and Redis running (as for npm start). Prints a Markdown table.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { startService, startOtlpReceiver, migratedSqliteUrl } = require(join(root, 'dist/libs/testing/src'));
const idleSeconds = Number(process.argv[process.argv.indexOf('--idle-seconds') + 1]) || 20;
const SERVICES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'];

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const receiver = await startOtlpReceiver();
const env = {
  DATABASE_URL: await migratedSqliteUrl(),
  PORT: '0',
  METRICS_PORT: '0',
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  FUNCTIONS_DIR: join(root, 'examples/functions'),
};
const rows = [];
for (const tracing of [true, false]) {
  const runEnv = tracing ? env : { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: '' };
  const procs = await Promise.all(SERVICES.map((name) => startService(name, runEnv)));
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  for (const p of procs) rows.push({ service: p.name, tracing, rss: rssMb(p.child.pid) });
  await Promise.all(procs.map((p) => p.stop()));
}
await receiver.close();

console.log(
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}; ${idleSeconds} s idle after "ready".\n`,
);
console.log('| service | RSS, tracing on | RSS, tracing off | budget |');
console.log('| --- | ---: | ---: | ---: |');
for (const name of SERVICES) {
  const on = rows.find((r) => r.service === name && r.tracing).rss;
  const off = rows.find((r) => r.service === name && !r.tracing).rss;
  console.log(`| ${name} | ${on.toFixed(1)} MB | ${off.toFixed(1)} MB | ≤ 110 MB ${on <= 110 ? '✓' : '✗'} |`);
}
process.exit(0);
