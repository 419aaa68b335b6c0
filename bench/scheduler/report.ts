import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { Lateness } from './lateness';

export const HEADING = '## Scheduler (bench/scheduler)';
export const TARGET_P99_MS = 50;

export interface ScenarioResult {
  database: string;
  scenario: string;
  /** The scheduler's claim of the due time, from its fire row. */
  claim: Lateness;
  /** The function receiving the call (claim + fn.exec hop), in the bench process. */
  call: Lateness;
  missedOrDuplicated: number;
}

const row = (r: ScenarioResult) =>
  `| ${r.database} | ${r.scenario} | ${r.claim.n} | ${r.claim.p50} | ${r.claim.p99} | ${r.claim.max} | ${r.call.p50} | ${r.call.p99} | ${r.call.max} | ${r.missedOrDuplicated} |`;

export function formatSection(results: ScenarioResult[], date: string): string {
  const spread = results.filter((r) => r.scenario.startsWith('1,000 delays, spread'));
  const verdict = spread
    .map((r) => `${r.database} ${r.call.p99} ms ${r.call.p99 < TARGET_P99_MS ? '**met**' : '**not met**'}`)
    .join('; ');
  return `${HEADING}

Run from the repo root: \`npm run build && npx vitest run --config bench/scheduler/vitest.config.mts\` (prints this
section; with \`BENCH_WRITE=1\` it also replaces it here). Not part of \`npm test\`.
Measured ${date} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version};
one scheduler process (built, default settings: worker concurrency 50), Redis 127.0.0.1:6379, a private
nats-server and the database on the same machine; the called function is a no-op served by the bench process.
1-minute load average at the end: ${loadavg()[0].toFixed(1)} (other work on the machine included).

Lateness = when it happened − the due time, in ms. **claim**: the scheduler claims the due time (its fire row's
\`lateness_ms\`, the moment BullMQ handed the trigger over plus the claim's first statement); **call**: the function
receives \`fn.exec\` (what a user sees). Tasks were created through \`scheduler.delays.create\` /
\`scheduler.crons.create\` beforehand; each delay's function is called once, every cron tick once.

| database | scenario | fires | claim p50 | claim p99 | claim max | call p50 | call p99 | call max | lost or doubled |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${results.map(row).join('\n')}

- Target p99 < ${TARGET_P99_MS} ms late (delayed tasks at a steady rate, the call as seen by the function): ${verdict}.
- The burst (1,000 delays due in the same millisecond) measures throughput, not timing: the last of them waits
  for the 999 before it, so its lateness is the time to claim, call and record 1,000 fires.
- Ticks of many crons due in the same second are a small burst: the worker takes their jobs one after another
  (for each, BullMQ runs a script to take it and one to create the cron's next job), so the last of 50 starts
  tens of ms after the first. A single cron's tick is claimed within a few ms.
- Why local timers: Redis wakes a client blocked on a delayed job only on its own timer tick (\`hz\`, 10 per
  second by default), so BullMQ alone starts a job 0–100 ms late (a bare BullMQ worker, no scheduler code, 1,000
  jobs over 10 s on this machine: p50 54 ms, p99 102 ms). The scheduler sets a timer for every trigger due within
  60 s that promotes the job at its due time; BullMQ still runs it, and still runs it (that much later) when no
  timer does. Raising \`hz\` in Redis narrows the fallback's lateness too.
`;
}

export function writeSection(file: string, section: string): void {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + HEADING.length);
  writeFileSync(file, `${text.slice(0, start)}${section}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`);
}
