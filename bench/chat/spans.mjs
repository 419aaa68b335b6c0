// Summarises the spans the deployed profile's OTLP sink wrote (SPANS_OUT=<file> with bench/chat/run.ts
// --deployed-only): per service and span name, how many and their duration's p50 and p90.
//   node bench/chat/spans.mjs <file>
import { readFileSync } from 'node:fs';

const byName = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
  const [service, name, us] = line.split('\t');
  const key = `${service} ${name.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')}`;
  if (!byName.has(key)) byName.set(key, []);
  byName.get(key).push(Number(us) / 1000);
}
const at = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
console.log('| span | count | p50 ms | p90 ms |\n| --- | ---: | ---: | ---: |');
for (const [key, ms] of [...byName].sort((a, b) => at(b[1], 0.5) - at(a[1], 0.5)))
  console.log(`| ${key} | ${ms.length} | ${at(ms, 0.5).toFixed(2)} | ${at(ms, 0.9).toFixed(2)} |`);
