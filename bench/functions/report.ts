import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { percentiles } from './measure';

export const HEADING = '## Functions (bench/functions)';

type Latency = ReturnType<typeof percentiles>;

export interface BenchResults {
  calls: number;
  warmup: number;
  overhead: (Latency & { label: string })[];
  sandboxStart?: Latency;
  perRunner: number;
  inFlight: number;
  waitCalls: number;
  /** Calls per second, one entry per round. */
  one: number[];
  two: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
const ms = (value: number) => value.toFixed(3);

export function formatSection(r: BenchResults): string {
  const runner = r.overhead[r.overhead.length - 1];
  const ratios = r.one.map((one, i) => r.two[i] / one);
  const ratio = median(ratios);
  const ceiling = (n: number) => (n * r.perRunner * 1_000) / 50;
  const rounds = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  return `${HEADING}

Run from the repo root: \`npm run build && npx vitest run --config bench/functions/vitest.config.mts\` (prints this
section; with \`BENCH_WRITE=1\` it also replaces it here). Not part of \`npm test\`.
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version},
NATS 127.0.0.1:4222 on the same machine; client, runner(s) and NATS share the cores (1-minute load average
at the end of the run: ${loadavg()[0].toFixed(1)}, other work on the machine included).

### Overhead of one call: a no-op function, caller → provider → caller

${r.calls.toLocaleString('en')} sequential calls after ${r.warmup} unmeasured ones, through \`FunctionClient.call\` (ms):

| path | p50 | p99 | mean |
| --- | ---: | ---: | ---: |
${r.overhead.map((o) => `| ${o.label} | ${ms(o.p50)} | ${ms(o.p99)} | ${ms(o.mean)} |`).join('\n')}

- Budget p50 < 1 ms and p99 < 5 ms for the runner path (the real one: bus, runner, a warm sandbox process
  and back): p50 ${met(runner.p50 < 1)}, p99 ${met(runner.p99 < 5)}.
- Starting a sandbox process (spawn to ready, \`--permission\`, 20 starts): p50 ${r.sandboxStart?.p50.toFixed(1)} ms,
  p99 ${r.sandboxStart?.p99.toFixed(1)} ms. A fork per call would add that to every call, hence the pool of warm processes.

### Throughput: a function that waits 50 ms

Custom function (sandboxed); each runner with \`FUNCTIONS_CONCURRENCY=${r.perRunner}\` and \`FUNCTIONS_SANDBOX_WORKERS=${r.perRunner}\`;
${r.waitCalls.toLocaleString('en')} calls with ${r.inFlight} in flight, after a warm-up; ${r.one.length} rounds, each measuring
1 runner, then 2 (the second started for the round and stopped after it).

| runners | calls/s, median | each round | ceiling (${r.perRunner} × 20/s per runner) |
| ---: | ---: | ---: | ---: |
| 1 | ${median(r.one).toFixed(0)} | ${rounds(r.one)} | ${ceiling(1)} |
| 2 | ${median(r.two).toFixed(0)} | ${rounds(r.two)} | ${ceiling(2)} |

- Scaling with 2 runners, median of the rounds' ratios: ×${ratio.toFixed(2)} (rounds: ${ratios.map((x) => `×${x.toFixed(2)}`).join(', ')});
  target ×1.9: ${met(ratio >= 1.9)}.
`;
}

/** Replaces this benchmark's section of docs/benchmarks.md (or appends it), leaving the others alone. */
export function writeSection(file: string, section: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Benchmarks\n';
  }
  const start = text.indexOf(HEADING);
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section.trimEnd()}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + HEADING.length);
  const rest = next < 0 ? '' : text.slice(next + 1);
  writeFileSync(file, `${text.slice(0, start)}${section.trimEnd()}\n${rest ? `\n${rest}` : ''}`);
}
