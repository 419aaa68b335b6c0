// The text of the `## Chat (bench/chat)` section of docs/benchmarks.md, from one run's figures.
import { availableParallelism, cpus } from 'node:os';
import type { DeployedResult } from './deployed';
import { percentile, type Sample } from '../common/measure';
import { mb, type Rss } from './memory';
import type { Stack } from './stack';

export interface Results {
  loadAtStart: number;
  conversations: number;
  turnsEach: number;
  latencyMs: number;
  modelCallsPerTurn: number;
  oursSequential: Sample;
  sdkSequential: Sample;
  oursConcurrent: Sample;
  sdkConcurrent: Sample;
  oursBurst: Sample;
  sdkBurst: Sample;
  cpu: CpuPerTurn;
  /** Gateway and executor RSS: idle after start, and the peaks with 100 and with all conversations in flight. */
  memory: { idle: Rss; at100: Rss; atAll: Rss };
  deployed: DeployedResult;
}

export type Cpu = ReturnType<Stack['cpuMs']>;

/** CPU per sequential turn, in ms. */
interface CpuPerTurn {
  gateway: number;
  executor: number;
  /** This process's share of a platform turn: its HTTP client and the `add` function. */
  client: number;
  /** @openai/agents in this process: the whole in-process turn. */
  sdk: number;
  /** The scripted model, for one platform turn and one SDK turn together. */
  modelBoth: number;
}
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');

/** What earlier runs measured and what was cut, printed under each new run's figures. */
const NOTES = `

Spread: the three full runs before this one (2026-11-22, within fifteen minutes, the same code) gave latency p50 ratios
1.90 / 1.91 / 1.85 and CPU ratios 1.61 / 1.63 / 1.58, with platform p50s of 8.54 / 7.35 / 7.92 ms. Measured as before
(the two sides in separate blocks, the SDK in the main thread, built-in fetch as the caller) the same code gave ratios
of 1.9 to 2.8 depending on how the machine's speed moved between the blocks.

Where the concurrency budget holds (measured separately on 2026-11-22 with \`--concurrent N\`, same 1 s model latency,
2 turns each, after the driver writes): 200 conversations (100 turns/s), p99 overhead 44 ms (SDK 26 ms); 400
conversations, 84 ms (SDK 150 ms); 600 conversations, 109 ms (SDK 103 ms). On this 2-core machine the platform keeps the
100 ms budget up to about 500 conversations in flight, where the in-process SDK reaches it too (earlier the same day,
before the driver writes: 200 conversations 101 ms, 400 conversations 252 ms).

Where the executor's CPU goes (a \`--cpu-prof\` profile of the executor over 2,000 sequential turns, taken once on
2026-11-22 after the turn's writes moved to the driver, with \`PROFILE=executor\`, summarised by
\`node bench/profile-summary.mjs <file> --skip-ms 4000\`; startup excluded): the two HTTP calls to the model 22% (OpenAI SDK
7%, HTTP client, web streams and undici's body parsing 15%), SQLite executing the turn's statements 15% (its WAL
checkpoints included: replayed alone, the turn's two transactions cost 0.18 ms without checkpoints and 0.32 ms with them,
and a checkpoint stalls the event loop for up to ~90 ms on this disk about once every hundred turns), loopback socket
writes 13% (on loopback the kernel's whole send path is charged to the sender), NATS client and bus 8%, garbage
collection 7%, logs, metrics and tracing 6%, the executor's own code 5%, protocol codec 3%, tokenizer 2%,
class-validator 2%; Prisma's client 0.2% (it was 14% with the writes going through it). The in-process SDK pays for
none of the persistence, authentication, rate limiting or bus hops.

What was cut on 2026-11-22, in order (CPU per sequential turn, gateway + executor: 3.16 + 7.48 ms at the start of the
day, with authentication on): API-key checks cached for 5 s instead of a database read per request; the rate limit, the
concurrent-run slot and the daily quota as one Redis script each (2 round trips a turn instead of 5); SQLite statements
prepared once instead of per query (the Prisma adapter prepares every query afresh); the turn's two transactions as raw
SQL instead of Prisma model queries; the model called over keep-alive connections with undici's \`request\` instead of the built-in fetch
(0.3 ms less CPU per call: "The SDKs' fetch" below); no stack trace captured up front for every NATS request (about 2.0 + 5.5 ms after these);
then the turn's two transactions run on the driver (better-sqlite3 or a pg pool) instead of through Prisma's client, which cut the executor by 1.1 to 1.5 ms a turn (alternating A/B runs:
5.6 to 6.0 ms before, 4.5 ms after; p50 0.8 to 1.4 ms lower). Earlier: \`createMany\` for messages avoided, no interactive
transaction, no re-read of the last sequence number, no history query on a new session. On 2026-11-26 that
writer moved off the connection Prisma's adapter holds (reached through the adapter's internals, with a prepared-statement
cache patched into it) onto connections it opens itself through the drivers' documented APIs (\`SqlWriter\` in
libs/persistence: a better-sqlite3 \`Database\` on the same file in WAL mode, each transaction one synchronous
\`db.transaction(fn).immediate()\`; a \`pg.Pool\` on PostgreSQL). \`npx vitest run --config bench/persistence/vitest.config.mts\`
times a turn's two writes alone (CPU of the process, 5 alternating blocks of 300 turns; the median block of each of three to five runs): SQLite 0.18
to 0.20 ms a turn on the writer's own connection, 0.21 to 0.23 ms on the adapter's connection before, 1.31 to 1.44 ms
through Prisma's documented \`$transaction([$executeRaw…])\`; PostgreSQL 0.81 to 0.96 ms, 0.83 to 0.92 ms before, 2.0 to
2.3 ms through Prisma. So the documented path keeps the saving (about 1.1 ms a turn on SQLite, 1.3 ms on PostgreSQL);
without the patched statement cache Prisma's own queries cost about 0.05 ms more each (a session and its history read:
0.61 to 0.67 ms against 0.53 ms).

Looked at and left: NestJS on Fastify instead of Express saves 0.07 ms of CPU a request here (a Nest 12 app with the
gateway's guard, validation pipe and body limit, 5 alternating rounds of 20,000 requests: 0.165 against 0.239 ms), not
worth the port (different body-error shapes, stricter routing, middleware without parsed bodies). The OpenAI SDK costs
0.25 to 0.3 ms a call over a raw \`http.request\` (0.45 to 0.5 ms against 0.2 ms), but the platform's providers are the SDKs. Handing
the model a buffered body instead of a stream saves nothing measurable. nats.js builds an \`Error\` (with its stack) to
cancel every request it has already answered, ~0.04 ms a request; a request mux of our own would avoid it.`;

export function report(r: Results): string {
  const { conversations: CONVERSATIONS, turnsEach: TURNS_EACH, latencyMs: LATENCY_MS } = r;
  const TURNS = r.oursSequential.ms.length;
  const overhead = (sample: Sample) => sample.ms.map((ms) => ms - LATENCY_MS * r.modelCallsPerTurn);
  const p = (s: Sample, q: number) => percentile(s.ms, q);
  const o = (s: Sample, q: number) => percentile(overhead(s), q);
  const ratio50 = p(r.oursSequential, 50) / p(r.sdkSequential, 50);
  const ratio99 = p(r.oursSequential, 99) / p(r.sdkSequential, 99);
  const concurrentRatio = o(r.oursConcurrent, 50) / o(r.sdkConcurrent, 50);
  const platformCpu = r.cpu.gateway + r.cpu.executor;
  const cpuRatio = platformCpu / r.cpu.sdk;
  const cpuInAll = platformCpu + r.cpu.client + r.cpu.modelBoth / 2;
  const allDone =
    r.oursConcurrent.failures === 0 && r.oursConcurrent.ms.length === CONVERSATIONS * TURNS_EACH;
  return `## Chat (bench/chat)

Run from the repo root: \`npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/chat/run.ts --write\` (prints this section; \`--write\` replaces it here).
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version}; 1-minute load average
${r.loadAtStart.toFixed(1)} when the run began (the machine is shared: other work competes for the same cores).

One chat turn = \`POST /api/v1/chat\` with an API key (checked, rate-limited and counted against the key's run slots and
daily quota in Redis, as deployed) through the gateway process, NATS, the agent-executor process (SQLite session,
run record and trace written), the scripted model (its own process) called twice (a \`<call>\` of \`add\`, then the answer)
and \`add\` executed over \`fn.exec\`, served by the benchmark process. **@openai/agents** runs the same turn in-process
(\`run(agent, message)\` with an \`add\` function tool, Chat Completions model, tracing off; in a worker thread of the
benchmark process, with its own heap, timing itself) against the same scripted model process, with native tool calls. Everything shares the machine's ${availableParallelism()} cores.
**Concurrent conversations** start evenly spread over ${(LATENCY_MS * r.modelCallsPerTurn) / 1000} s (one turn's model time), so once the ramp is
done all ${CONVERSATIONS} are in flight at once; each takes ${TURNS_EACH} turns in its session (the second one loads the first from
the database). **Overhead** is a turn's time minus its 2 × 1 s of model latency. The **burst** row sends ${CONVERSATIONS} turns at
the same instant: its overhead is mostly the queue of ${CONVERSATIONS} turns' CPU work on ${availableParallelism()} cores.

| Scenario | AgentChassis | @openai/agents | ratio |
| --- | ---: | ---: | ---: |
| Zero-latency model, ${r.oursSequential.ms.length} sequential turns: p50 | ${fmt(p(r.oursSequential, 50))} ms | ${fmt(p(r.sdkSequential, 50))} ms | ${ratio50.toFixed(2)} |
| same, p99 | ${fmt(p(r.oursSequential, 99))} ms | ${fmt(p(r.sdkSequential, 99))} ms | ${ratio99.toFixed(2)} |
| ${CONVERSATIONS} concurrent conversations, 1 s per model call, ${TURNS_EACH} turns each: turns completed | ${r.oursConcurrent.ms.length} / ${CONVERSATIONS * TURNS_EACH} | ${r.sdkConcurrent.ms.length} / ${CONVERSATIONS * TURNS_EACH} | |
| same, overhead p50 (turn time − 2 × 1 s) | ${fmt(o(r.oursConcurrent, 50))} ms | ${fmt(o(r.sdkConcurrent, 50))} ms | ${concurrentRatio.toFixed(2)} |
| same, overhead p99 | ${fmt(o(r.oursConcurrent, 99))} ms | ${fmt(o(r.sdkConcurrent, 99))} ms | |
| burst: ${CONVERSATIONS} first turns sent in the same millisecond, overhead p50 | ${fmt(o(r.oursBurst, 50))} ms | ${fmt(o(r.sdkBurst, 50))} ms | |
| burst, overhead p99 | ${fmt(o(r.oursBurst, 99))} ms | ${fmt(o(r.sdkBurst, 99))} ms | |

The sequential rows alternate one AgentChassis turn and one SDK turn, so both sides see the same machine (its speed
drifts by tens of percent over minutes when other work shares it). The benchmark's HTTP client is node:http with
keep-alive, as load generators use (Node's built-in fetch would add ~0.6 ms of client CPU to every platform turn).
CPU time per sequential turn: AgentChassis gateway ${fmt(r.cpu.gateway)} ms + executor ${fmt(r.cpu.executor)} ms (from \`/proc/<pid>/stat\`,
10 ms ticks averaged over the ${TURNS} measured turns, read after the warm-up as the SDK's is; the benchmark's HTTP client and \`add\` ${fmt(r.cpu.client)} ms);
@openai/agents in-process ${fmt(r.cpu.sdk)} ms (the benchmark process's \`process.cpuUsage\` around each turn, all threads); the scripted model ${fmt(r.cpu.modelBoth)} ms for
the two together. ${availableParallelism()} cores give 2,000 ms of CPU a second, so a platform turn costing about ${fmt(cpuInAll)} ms of CPU in
all (model and client included) caps this machine near ${Math.round((availableParallelism() * 1000) / cpuInAll)} turns/s: ${CONVERSATIONS}
conversations in flight with 2 s of model time per turn ask for ${Math.round(CONVERSATIONS / 2)} turns/s.

- A chat turn with one tool call, zero-latency model, p50 < 10 ms: ${met(p(r.oursSequential, 50) < 10)} (${fmt(p(r.oursSequential, 50))} ms; p99 ${fmt(p(r.oursSequential, 99))} ms).
- ${CONVERSATIONS} concurrent conversations all complete: ${met(allDone)}; p99 overhead < 100 ms: ${met(o(r.oursConcurrent, 99) < 100)} (${fmt(o(r.oursConcurrent, 99))} ms).
- Per-turn overhead at most 2× the in-process SDK's, as CPU (what the platform spends per turn): ${met(cpuRatio <= 2)}
  (gateway + executor ${fmt(platformCpu)} ms against the SDK's ${fmt(r.cpu.sdk)} ms, ratio ${cpuRatio.toFixed(2)}).
- The same as latency (the caller's wait, which also holds the HTTP and NATS hops between the processes): ${met(ratio50 <= 2)}
  (p50 ratio ${ratio50.toFixed(2)}, p99 ratio ${ratio99.toFixed(2)}).
${
  o(r.sdkConcurrent, 99) >= 100
    ? `- The p99 overhead < 100 ms is out of reach on this machine for any client of this load: the in-process
  SDK itself shows ${fmt(o(r.sdkConcurrent, 99))} ms, because ${CONVERSATIONS} conversations with 2 s of model time per turn ask for ${Math.round(CONVERSATIONS / 2)} turns/s
  and the scripted model and the load generator share the same ${availableParallelism()} cores.`
    : ''
}
- Failed turns: ${r.oursSequential.failures + r.oursConcurrent.failures + r.oursBurst.failures} (AgentChassis), ${r.sdkSequential.failures + r.sdkConcurrent.failures + r.sdkBurst.failures} (@openai/agents).${firstErrors(r)}${NOTES}
${deployedSection(r.deployed)}
${memorySection(r)}`;
}

function firstErrors(r: Results): string {
  const samples = [
    r.oursSequential,
    r.oursConcurrent,
    r.oursBurst,
    r.sdkSequential,
    r.sdkConcurrent,
    r.sdkBurst,
  ];
  const errors = [...new Set(samples.flatMap((s) => (s.firstError ? [s.firstError.slice(0, 300)] : [])))];
  return errors.map((e) => `\n  First failure: ${e}`).join('');
}

export function deployedSection(d: DeployedResult): string {
  const p50 = (s: Sample) => percentile(s.ms, 50);
  const p99 = (s: Sample) => percentile(s.ms, 99);
  const platformCpu = d.cpu.gateway + d.cpu.executor + d.cpu.runner;
  const cpuRatio = platformCpu / d.cpu.sdk;
  const latencyRatio = p50(d.ours) / p50(d.sdk);
  const vsMastra50 = p50(d.ours) / p50(d.mastra);
  const vsMastraCpu = platformCpu / d.cpu.mastra;
  // a concurrent turn's overhead: its time less its two model calls of 1 s
  const overheadP99 = (rounds: Sample[]) => rounds.map((round) => percentile(round.ms, 99) - 2_000);
  const oursP99 = overheadP99(d.concurrent.ours);
  const mastraP99 = overheadP99(d.concurrent.mastra);
  const worstP99Ratio = Math.max(...oursP99.map((ours, i) => ours / mastraP99[i]));
  const list = (values: number[]) => values.map((v) => `${fmt(v)} ms`).join(', ');
  const failures = (rounds: Sample[]) => rounds.reduce((sum, round) => sum + round.failures, 0);
  const firstError = [d.ours, d.sdk, d.mastra, ...d.concurrent.ours, ...d.concurrent.mastra].find(
    (s) => s.firstError,
  )?.firstError;
  return `
### As deployed

The same sequential round (${d.ours.ms.length} turns each side, one of each in turn, after ${50} warm-up turns each), with the platform
as an operator runs it: tracing on (spans exported over OTLP/HTTP to a receiver in its own process), JSON logs at
\`info\` written to a file, \`add\` a custom function file that a **function-runner** process loads and runs in its sandbox,
and the caller on Node's built-in \`fetch\`. The in-process SDK (@openai/agents) is unchanged. The deployed peer is a
**Mastra server** as \`mastra build\` makes it (\`bench/peers/src/mastra\`: \`@mastra/core\` agent with the same \`add\` as a
tool, \`@mastra/memory\` on \`@mastra/libsql\` storage in a file, each turn a thread of its own that memory loads and saves,
the same scripted model through \`@ai-sdk/openai-compatible\`), in its own process, called with the same \`fetch\` at
\`POST /api/agents/bench/generate\`. Each side's CPU is counted over the measured turns only (the platform's three
services and Mastra's process from \`/proc\`, each with the processes it started: the function-runner's sandboxes; the
SDK's with \`process.cpuUsage\`).

| Deployed profile | AgentChassis | @openai/agents (in process) | Mastra server | ratio to the SDK | ratio to Mastra |
| --- | ---: | ---: | ---: | ---: | ---: |
| latency p50 | ${fmt(p50(d.ours))} ms | ${fmt(p50(d.sdk))} ms | ${fmt(p50(d.mastra))} ms | ${latencyRatio.toFixed(2)} | ${vsMastra50.toFixed(2)} |
| latency p99 | ${fmt(p99(d.ours))} ms | ${fmt(p99(d.sdk))} ms | ${fmt(p99(d.mastra))} ms | ${(p99(d.ours) / p99(d.sdk)).toFixed(2)} | ${(p99(d.ours) / p99(d.mastra)).toFixed(2)} |
| CPU per turn | ${fmt(platformCpu)} ms (gateway ${fmt(d.cpu.gateway)} + executor ${fmt(d.cpu.executor)} + runner ${fmt(d.cpu.runner)}) | ${fmt(d.cpu.sdk)} ms | ${fmt(d.cpu.mastra)} ms | ${cpuRatio.toFixed(2)} | ${vsMastraCpu.toFixed(2)} |

${d.concurrent.conversations} concurrent conversations of two turns each (1 s a model call, starts spread over 2 s), the platform's and
Mastra's rounds alternating (platform, Mastra, platform, Mastra); overhead = a turn's time less its 2 s of model time:

| p99 overhead | round 1 | round 2 |
| --- | ---: | ---: |
| AgentChassis | ${fmt(oursP99[0])} ms | ${fmt(oursP99[1])} ms |
| Mastra server | ${fmt(mastraP99[0])} ms | ${fmt(mastraP99[1])} ms |

- At most 0.5× the deployed peer (Mastra): latency p50 ${met(vsMastra50 <= 0.5)} (${vsMastra50.toFixed(2)}); CPU per turn ${met(vsMastraCpu <= 0.5)} (${vsMastraCpu.toFixed(2)}); p99 overhead under ${d.concurrent.conversations} concurrent conversations ${met(worstP99Ratio <= 0.5)} (worst round ${worstP99Ratio.toFixed(2)}: ${list(oursP99)} against ${list(mastraP99)}).
- Against the in-process SDK: a turn at most 2.3× its latency ${met(latencyRatio <= 2.3)} (${latencyRatio.toFixed(2)}); CPU at most 1.5× ${met(cpuRatio <= 1.5)} (${cpuRatio.toFixed(2)}). The transport floor (\`bench/chat/hops.ts\`, the HTTP, Redis, NATS and sandbox hops a deployed turn crosses and the SDK does not) is in the findings below.
- Mastra's server RSS after the sequential round: ${mb(d.mastraRssBytes)} MB.
- Failed turns: ${d.ours.failures + failures(d.concurrent.ours)} (AgentChassis), ${d.sdk.failures} (@openai/agents), ${d.mastra.failures + failures(d.concurrent.mastra)} (Mastra); the platform's concurrent turns whose \`add\` call got \`unavailable\`: ${d.unavailableCalls}${d.holdExecutorMs > 0 ? ` (the executor held ${d.holdExecutorMs} ms, SIGSTOP, 2 s into each of the platform's rounds)` : ''}.${firstError ? `\n  First failure: ${firstError.slice(0, 300)}` : ''}

Findings, and how these figures changed over time: the next section (written by hand; \`--write\` leaves it).
`;
}

export function memorySection(r: Pick<Results, 'conversations' | 'memory'>): string {
  const m = r.memory;
  const fromIdle = (service: keyof Rss) => kb((m.atAll[service] - m.idle[service]) / r.conversations);
  const marginal = (service: keyof Rss) =>
    kb((m.atAll[service] - m.at100[service]) / (r.conversations - 100));
  const row = (name: string, service: keyof Rss) =>
    `| ${name} | ${mb(m.idle[service])} MB | ${mb(m.at100[service])} MB | ${mb(m.atAll[service])} MB | ${fromIdle(service)} KB | ${marginal(service)} KB |`;
  return `
### Memory under load

RSS from \`/proc/<pid>/status\` (lean profile): idle right after start, and the highest value sampled every 100 ms while 100
and while ${r.conversations} conversations were in flight (1 s model latency, the concurrent rounds above).

| service | idle | 100 in flight | ${r.conversations} in flight | per run, from idle | per run, 100 → ${r.conversations} |
| --- | ---: | ---: | ---: | ---: | ---: |
${row('gateway', 'gateway')}
${row('agent-executor', 'executor')}

- Executor ≤ 300 MB with ${r.conversations} runs in flight: ${met(m.atAll.executor <= 300 * 1024 * 1024)}.
- Per run from idle = (peak − idle) / ${r.conversations}: it also counts what the first turn loads once (the tokenizer's
  tables, lazily compiled code); per run 100 → ${r.conversations} = the growth between the two peaks / ${r.conversations - 100}.
  Both are upper bounds of what a run holds, since the heap grows ahead of what it holds.

Findings, and how these figures changed over time: the next section (written by hand; \`--write\` leaves it).
`;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(0);
