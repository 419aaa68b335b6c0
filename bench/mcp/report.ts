import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { percentiles } from '../functions/measure';

export const HEADING = '## MCP (bench/mcp)';

type Latency = ReturnType<typeof percentiles>;

export interface McpBenchResults {
  /** Platform p50 minus SDK p50 of each round (ms). */
  rounds: number[];
  callsPerRound: number;
  warmup: number;
  platform: Latency;
  sdk: Latency;
}

const ms = (value: number) => value.toFixed(3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

export function formatSection(r: McpBenchResults): string {
  const added = r.platform.p50 - r.sdk.p50;
  return `${HEADING}

Run from the repo root: \`npm run build && npx vitest run --config bench/mcp/vitest.config.mts\` (prints this
section; with \`BENCH_WRITE=1\` it also replaces it here). Not part of \`npm test\`.
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version}.
**The machine was shared with other engineers' builds and tests during the run** (1-minute load average at
the end: ${loadavg()[0].toFixed(1)}); read the numbers as an upper bound.

server-everything's \`echo\` tool over stdio, called one at a time: through the platform (\`FunctionClient.call\`
→ NATS (its own nats-server) → function-runner → its shared MCP connection → the server, and back) and
directly with the SDK's \`Client\` from the bench process to a second copy of the same server.
${r.rounds.length} rounds of ${r.callsPerRound} calls, alternating platform and SDK, after ${r.warmup} unmeasured calls each (ms):

| path | p50 | p99 | mean |
| --- | ---: | ---: | ---: |
| through the platform (runner) | ${ms(r.platform.p50)} | ${ms(r.platform.p99)} | ${ms(r.platform.mean)} |
| SDK client, directly | ${ms(r.sdk.p50)} | ${ms(r.sdk.p99)} | ${ms(r.sdk.mean)} |

- Added by the platform at p50: ${ms(added)} ms (median of the rounds' own differences: ${ms(median(r.rounds))} ms;
  rounds: ${r.rounds.map(ms).join(', ')}). Budget ≤ 1 ms: ${added <= 1 ? '**met**' : '**not met**'}.
`;
}

/** Replaces this benchmark's section of docs/benchmarks.md (or appends it), leaving the others alone. */
export function writeSection(file: string, section: string): void {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) return writeFileSync(file, `${text.trimEnd()}\n\n${section.trimEnd()}\n`);
  const next = text.indexOf('\n## ', start + HEADING.length);
  const rest = next < 0 ? '' : text.slice(next + 1);
  writeFileSync(file, `${text.slice(0, start)}${section.trimEnd()}\n${rest ? `\n${rest}` : ''}`);
}
