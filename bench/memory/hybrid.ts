// What search by meaning adds to long-term memory on SQLite: `memory_retrieve`'s latency with
// full text only and hybrid (full text + sqlite-vec nearest neighbours, merged by reciprocal rank
// fusion), for one principal with 10,000 segments, embeddings from the scripted LLM on loopback.
// Build first, then from the repo root:
//   npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/memory/hybrid.ts [--queries 1000] [--write]
// Prints the `## Long-term memory, hybrid search (bench/memory)` section of docs/benchmarks.md; --write replaces it there.
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeDocSection } from '../common/doc-section';
import { percentile } from '../common/measure';
import { sentence } from './corpus';
import { ROOT } from '../common/processes';

const require = createRequire(join(ROOT, 'package.json'));
const dist = (path: string) => require(join(ROOT, 'dist', path));
const { MemorySegmentRepository, MemoryVectorRepository, MemoryIndexService, EmbeddingsClient } = dist(
  'apps/agent-executor/src/testing/parts',
);
const { memoryTerms } = dist('libs/agent-core/src');
const { connectMigrated, openSqlWriter } = dist('libs/persistence/src');
const { migratedSqliteUrl, startScriptedLlm, REPO_ROOT } = dist('libs/testing/src');

const args = process.argv.slice(2);
const at = args.indexOf('--queries');
const QUERIES = at >= 0 ? Number(args[at + 1]) : 1_000;
const WARMUP = 100;
const SEGMENTS = 10_000;
const OTHERS = 2_000;
const SEGMENTS_PER_RUN = 10;
/** text-embedding-3-small's full width, and the narrower one it can be asked for. */
const WIDTHS = [1_536, 512];
const HEADING = 'Long-term memory, hybrid search (bench/memory)';
const LOAD_AT_START = loadavg()[0];

interface BenchDb {
  run: { create(args: { data: object }): Promise<unknown> };
}

interface Index {
  append(segments: object[]): Promise<void>;
  embedRun(runId: string): Promise<void>;
}

interface Searcher {
  search(scope: { principal: string }, terms: string[], limit: number): Promise<unknown[]>;
}

let runCount = 0;

async function fill(db: BenchDb, index: Index, principal: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += SEGMENTS_PER_RUN) {
    const runId = `run_h${runCount++}`;
    await db.run.create({ data: { id: runId, owner: principal, agent: 'helper', input: '' } });
    await index.append(
      Array.from({ length: SEGMENTS_PER_RUN }, (_, i) => ({
        principal,
        sessionId: `ses_${principal}`,
        agent: 'helper',
        runId,
        iterationIndex: i,
        segmentIndex: 0,
        type: i === 0 ? 'user_message' : 'tool_result',
        content: sentence(8, 40),
        at: new Date(),
      })),
    );
    await index.embedRun(runId);
  }
}

async function latency(
  searcher: Searcher,
  queries: string[][],
): Promise<{ p50: number; p99: number; cpu: number }> {
  const times: number[] = [];
  let cpu = 0;
  for (let i = 0; i < queries.length; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await searcher.search({ principal: 'owner' }, queries[i], 5);
    const used = process.cpuUsage(cpuStarted);
    if (i < WARMUP) continue;
    times.push(performance.now() - started);
    cpu += (used.user + used.system) / 1000;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpu: cpu / (queries.length - WARMUP) };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

interface Measured {
  width: number;
  embedSeconds: number;
  rows: string[];
}

async function measure(width: number): Promise<Measured> {
  const llm = await startScriptedLlm();
  const url = await migratedSqliteUrl();
  const { db } = await connectMigrated(url, REPO_ROOT);
  const writer = openSqlWriter(url, db);
  const config = {
    database: { url, dev_postgres_url: '' },
    memory: { embeddings: { base_url: llm.url, model: 'scripted', dimensions: width, timeout: 30_000 } },
  };
  const logger = { warn: (message: string) => console.error(message) };
  const text = new MemorySegmentRepository(db, writer, config);
  const vectors = new MemoryVectorRepository(writer, config, logger);
  const hybrid = new MemoryIndexService(text, vectors, new EmbeddingsClient(config), logger);
  try {
    if (!(await vectors.available())) throw new Error('sqlite-vec could not be loaded');
    const embedStarted = performance.now();
    for (let k = 0; k < 10; k++) await fill(db, hybrid, `other${k}`, OTHERS / 10);
    await fill(db, hybrid, 'owner', SEGMENTS);
    const embedSeconds = (performance.now() - embedStarted) / 1000;
    const queries = Array.from({ length: QUERIES + WARMUP }, (_, i) => [
      ...memoryTerms(sentence(1, 4)),
      `q${i}`,
    ]);
    const fullText = await latency(text, queries);
    const uncached = await latency(hybrid, queries);
    // The cache holds the last 1,000 queries: asked again in order, each is found.
    const cached = await latency(hybrid, queries.slice(-Math.min(queries.length, 1_000)));
    const row = (name: string, l: { p50: number; p99: number; cpu: number }) =>
      `| ${width} | ${name} | ${ms(l.p50)} | ${ms(l.p99)} | ${ms(l.cpu)} |`;
    return {
      width,
      embedSeconds,
      rows: [
        row('full text only', fullText),
        row('hybrid, query not cached', uncached),
        row('hybrid, query cached', cached),
      ],
    };
  } finally {
    await writer.close();
    await db.$disconnect();
    await llm.close();
  }
}

async function main(): Promise<void> {
  const measured: Measured[] = [];
  for (const width of WIDTHS) measured.push(await measure(width));
  const section = [
    `## ${HEADING}`,
    '',
    'Run from the repo root: `npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/memory/hybrid.ts --write` (prints this section; `--write` replaces it here).',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model}, ${cpus().length} cores, Node ${process.version}; 1-minute load average ${LOAD_AT_START.toFixed(1)} when the run began.`,
    '',
    `SQLite, one principal with ${SEGMENTS.toLocaleString('en')} segments (and ${OTHERS.toLocaleString('en')} of 10 other principals), vectors of ${WIDTHS.join(' and ')} dimensions`,
    "in sqlite-vec's `vec0` table (exact search within the principal's partition), embedded by the scripted LLM on loopback",
    `(so an uncached query's time includes one HTTP round trip but no model). ${QUERIES} queries of 1–3 words after ${WARMUP} of warm-up,`,
    'best 5 returned, wall-clock in the client; CPU is this process only (not the scripted LLM). Hybrid: the 50 best full-text',
    'matches and the 50 nearest vectors merged by reciprocal rank fusion. "Cached": the last 1,000 queries again, their vectors',
    `from the query cache. Embedding all ${(SEGMENTS + OTHERS).toLocaleString('en')} segments behind their runs (one request per run of ${SEGMENTS_PER_RUN}) took`,
    `${measured.map((m) => `${m.embedSeconds.toFixed(1)} s at ${m.width}`).join(', ')} dimensions here.`,
    '',
    '| dimensions | search | p50 | p99 | CPU per search (mean, this process) |',
    '| ---: | --- | ---: | ---: | ---: |',
    ...measured.flatMap((m) => m.rows),
    '',
  ].join('\n');
  console.log(section);
  if (args.includes('--write')) writeDocSection(HEADING, section);
}

void main();
