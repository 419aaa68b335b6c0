// Summarises the spans the deployed profile's OTLP sink wrote (SPANS_OUT=<file> with bench/chat/run.ts
// --deployed-only): per service and span name, how many and their duration's p50 and p90; then a chat
// turn's timeline: the stretches between its spans (the hops, and each service's own work around them).
//   node bench/chat/spans.mjs <file>
import { readFileSync } from 'node:fs';

const byName = new Map();
const byTrace = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
  const [service, name, us, traceId, start, end] = line.split('\t');
  const key = `${service} ${name.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')}`;
  if (!byName.has(key)) byName.set(key, []);
  byName.get(key).push(Number(us) / 1000);
  if (!traceId) continue;
  if (!byTrace.has(traceId)) byTrace.set(traceId, []);
  byTrace.get(traceId).push({ key, start: BigInt(start), end: BigInt(end) });
}
const at = (values, q) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
console.log('| span | count | p50 ms | p90 ms |\n| --- | ---: | ---: | ---: |');
for (const [key, ms] of [...byName].sort((a, b) => at(b[1], 0.5) - at(a[1], 0.5)))
  console.log(`| ${key} | ${ms.length} | ${at(ms, 0.5).toFixed(2)} | ${at(ms, 0.9).toFixed(2)} |`);

// A chat turn calling one function: its spans in order, and the stretches between them.
const TURN = [
  ['post', 'gateway POST /api/v1/chat'],
  ['send', 'gateway send agent.run'],
  ['run', 'agent-executor process agent.run'],
  ['model', 'agent-executor chat scripted-model'],
  ['call', 'agent-executor send fn.exec.add'],
  ['fn', 'function-runner process fn.exec.add'],
];
const STRETCHES = [
  ['gateway, before agent.run', (t) => t.send.start - t.post.start],
  ['agent.run there', (t) => t.run.start - t.send.start],
  ['executor, before the 1st model call', (t) => t.model[0].start - t.run.start],
  ['1st model call', (t) => t.model[0].end - t.model[0].start],
  ['executor, between model and function', (t) => t.call.start - t.model[0].end],
  ['fn.exec there', (t) => t.fn.start - t.call.start],
  ['function-runner', (t) => t.fn.end - t.fn.start],
  ['fn.exec back', (t) => t.call.end - t.fn.end],
  ['executor, between function and model', (t) => t.model[1].start - t.call.end],
  ['2nd model call', (t) => t.model[1].end - t.model[1].start],
  ['executor, after the 2nd model call', (t) => t.run.end - t.model[1].end],
  ['agent.run back', (t) => t.send.end - t.run.end],
  ['gateway, after agent.run', (t) => t.post.end - t.send.end],
];
const turns = [];
for (const spans of byTrace.values()) {
  const turn = {};
  for (const [role, key] of TURN) {
    const found = spans.filter((span) => span.key === key).sort((a, b) => (a.start < b.start ? -1 : 1));
    turn[role] = role === 'model' ? found : found[0];
  }
  if (TURN.every(([role]) => turn[role]) && turn.model.length === 2) turns.push(turn);
}
if (turns.length > 0) {
  console.log(`\n${turns.length} turns: their timeline\n\n| stretch | p50 ms | mean ms |\n| --- | ---: | ---: |`);
  for (const [name, of] of STRETCHES) {
    const ms = turns.map((t) => Number(of(t)) / 1e6);
    console.log(`| ${name} | ${at(ms, 0.5).toFixed(2)} | ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)} |`);
  }
}
