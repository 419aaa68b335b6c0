// The text of the `## Embedded SDK (bench/embedded)` section of docs/benchmarks.md.
import { availableParallelism, cpus } from 'node:os';
import { percentile, type Sample } from '../common/measure';

export interface EmbeddedResults {
  loadAtStart: number;
  loadAtEnd: number;
  warmup: number;
  ours: Sample;
  /** @openai/agents */
  theirs: Sample;
  /** The Vercel AI SDK */
  vercel: Sample;
  /** CPU of this process per turn (all threads), in ms. */
  oursCpuMs: number;
  theirsCpuMs: number;
  vercelCpuMs: number;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');

export function embeddedSection(r: EmbeddedResults): string {
  const p = (s: Sample, q: number) => percentile(s.ms, q);
  const ratio = (ours: number, theirs: number) => (ours / theirs).toFixed(2);
  const vsAgents50 = p(r.ours, 50) / p(r.theirs, 50);
  const vsVercel50 = p(r.ours, 50) / p(r.vercel, 50);
  const cpuVsAgents = r.oursCpuMs / r.theirsCpuMs;
  const cpuVsVercel = r.oursCpuMs / r.vercelCpuMs;
  const failures = `${r.ours.failures} (embedded SDK), ${r.theirs.failures} (@openai/agents), ${r.vercel.failures} (Vercel AI SDK)`;
  const firstError = r.ours.firstError ?? r.theirs.firstError ?? r.vercel.firstError;
  return `## Embedded SDK (bench/embedded)

Run from the repo root: \`npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/embedded/run.ts --write\` (prints this section; \`--write\` replaces it here; the first run installs the peers in \`bench/peers\`).
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version}; 1-minute load average
${r.loadAtStart.toFixed(1)} when the run began and ${r.loadAtEnd.toFixed(1)} when it ended (the machine is shared).

One turn = two model calls and one tool call, in the benchmark's own process: the embedded SDK (\`@agentchassis/agent\`,
built from \`libs/agent\`: \`createAgent\` with the \`openai()\` model, the native protocol, an in-process \`add\`
function, no session) against **@openai/agents** (\`run(agent, message)\`, the same \`add\` as a function tool, Chat
Completions model, tracing off) and the **Vercel AI SDK** (\`generateText\` with \`add\` as a tool and a tool loop,
\`stopWhen: stepCountIs(5)\`, on \`@ai-sdk/openai-compatible\`; from \`bench/peers\`). All call the same scripted model,
in its own process (a native tool call of \`add\`, then the answer), and all check the answer. ${r.ours.ms.length} turns each,
one of each in turn after ${r.warmup} warm-up turns each, so all see the same machine; CPU is \`process.cpuUsage\` around each
turn (all threads of this process; the model's process is not counted).

| Per turn | embedded SDK | @openai/agents | Vercel AI SDK | ratio to @openai/agents | ratio to Vercel AI SDK |
| --- | ---: | ---: | ---: | ---: | ---: |
| latency p50 | ${fmt(p(r.ours, 50))} ms | ${fmt(p(r.theirs, 50))} ms | ${fmt(p(r.vercel, 50))} ms | ${vsAgents50.toFixed(2)} | ${vsVercel50.toFixed(2)} |
| latency p99 | ${fmt(p(r.ours, 99))} ms | ${fmt(p(r.theirs, 99))} ms | ${fmt(p(r.vercel, 99))} ms | ${ratio(p(r.ours, 99), p(r.theirs, 99))} | ${ratio(p(r.ours, 99), p(r.vercel, 99))} |
| CPU | ${fmt(r.oursCpuMs)} ms | ${fmt(r.theirsCpuMs)} ms | ${fmt(r.vercelCpuMs)} ms | ${cpuVsAgents.toFixed(2)} | ${cpuVsVercel.toFixed(2)} |

- Budget: the embedded turn at most as costly as either (ratio ≤ 1.0). Latency p50: ${met(vsAgents50 <= 1 && vsVercel50 <= 1)}; CPU: ${met(cpuVsAgents <= 1 && cpuVsVercel <= 1)}.
- Failed turns: ${failures}.${firstError ? `\n  First failure: ${firstError.slice(0, 300)}` : ''}
- The p99s are the machine's stalls (other work on the same 2 cores), not any library's.
`;
}
