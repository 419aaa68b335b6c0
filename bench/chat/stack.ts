// The platform under measurement: a private nats-server, the scripted model as its own process,
// the built gateway and agent-executor as processes, and the `add` function, served by this process
// (the lean profile) or, as deployed, by a function-runner running it as a sandboxed custom function,
// with tracing exported over OTLP and JSON info logs written to a file.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bus as BusType } from '../../libs/bus/src/bus';
import type { Routes as RoutesType } from '../../libs/contracts/src/routes';
import { startNatsServer } from '../../libs/testing/src/nats-server';
import { nodeFlags } from '../../libs/testing/src/node-flags';
import { ADD } from '../common/add-function';
import {
  type Proc,
  processCpuMs,
  processRssBytes,
  ROOT,
  type Stoppable,
  startProcess,
} from '../common/processes';
import { startScriptedModel } from '../common/scripted-model';

const dist = createRequire(join(ROOT, 'package.json'));
const { Bus } = dist(join(ROOT, 'dist/libs/bus/src/index.js')) as { Bus: typeof BusType };
const { Routes } = dist(join(ROOT, 'dist/libs/contracts/src/index.js')) as { Routes: typeof RoutesType };
const { Migrator } = dist(join(ROOT, 'dist/libs/persistence/src/index.js'));

/** The API key every benchmark turn presents. */
export const ADMIN_KEY = `ac_bench_${randomBytes(24).toString('base64url')}`;

/**
 * As deployed: the services' V8 flags (deploy/node-flags.json, which scripts/start.mjs and the
 * images use too). `BENCH_NODE_FLAGS="--a --b"` replaces them, for rounds comparing flags.
 */
const SERVICE_FLAGS = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? nodeFlags(ROOT);

/** `PROFILE=gateway,executor` writes a V8 CPU profile of each named service to `PROFILE_DIR` (/tmp/prof). */
function profiled(service: string): string[] {
  const wanted = (process.env.PROFILE ?? '').split(',').includes(service);
  const dir = process.env.PROFILE_DIR ?? '/tmp/prof';
  return [...SERVICE_FLAGS, ...(wanted ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])];
}

export interface Stack {
  gateway: string;
  /** The stack's own nats-server, for benches that watch the bus. */
  nats: string;
  llm: string;
  /** CPU time (user + system) each process has used so far, in ms; `runner` is 0 in the lean profile. */
  cpuMs(): Record<'gateway' | 'executor' | 'runner' | 'model' | 'bench', number>;
  /** Resident memory of each service now, in bytes (/proc/<pid>/status VmRSS). */
  rssBytes(): Record<'gateway' | 'executor', number>;
  setScript(script: unknown): Promise<void>;
  /** Holds the executor (SIGSTOP, then SIGCONT after `ms`), as a machine's load holds a starved process. */
  holdExecutor(ms: number): Promise<void>;
  close(): Promise<void>;
}

export type Profile = 'lean' | 'deployed';

export async function startStack(profile: Profile = 'lean'): Promise<Stack> {
  const started: Stoppable[] = [];
  try {
    return await start(started, profile);
  } catch (err) {
    await Promise.all(started.map((item) => item.stop()));
    throw err;
  }
}

async function start(started: Stoppable[], profile: Profile): Promise<Stack> {
  const deployed = profile === 'deployed';
  const work = mkdtempSync(join(tmpdir(), `ac-bench-${profile}-`));
  const nats = await startNatsServer();
  started.push(nats);
  const model = await startScriptedModel(started);
  const llm = model.url;
  const bus = await Bus.connect({ url: nats.url, name: 'bench' });
  if (!deployed) serveAdd(bus);
  await bus.flush();
  const otlp = deployed ? await startOtlpSink(started) : undefined;
  const env = await stackEnv({ nats: nats.url, llm, deployed, otlp: otlp?.url, work });
  const logTo = deployed ? join(work, 'services.log') : undefined;
  const runner = deployed
    ? await startProcess(
        'function-runner',
        [...profiled('runner'), 'dist/apps/function-runner/src/main.js'],
        env,
        / ready\b/,
        started,
        logTo,
      )
    : undefined;
  if (runner) await waitForFunction(bus, 'add');
  const [gateway, executor] = await Promise.all([
    startProcess(
      'gateway',
      [...profiled('gateway'), 'dist/apps/gateway/src/main.js'],
      env,
      / ready\b/,
      started,
      logTo,
    ),
    startProcess(
      'agent-executor',
      [...profiled('executor'), 'dist/apps/agent-executor/src/main.js'],
      env,
      / ready\b/,
      started,
      logTo,
    ),
  ]);
  const port = /http:\/\/[^:\s"]+:(\d+)/.exec(gateway.output())?.[1];
  return {
    gateway: `http://127.0.0.1:${port}`,
    nats: nats.url,
    llm,
    cpuMs: () => ({
      gateway: processCpuMs(gateway.pid),
      executor: processCpuMs(executor.pid),
      runner: runner ? processCpuMs(runner.pid) : 0,
      model: processCpuMs(model.pid),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    }),
    rssBytes: () => ({ gateway: processRssBytes(gateway.pid), executor: processRssBytes(executor.pid) }),
    setScript: model.setScript,
    holdExecutor: async (ms) => {
      process.kill(executor.pid!, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, ms));
      process.kill(executor.pid!, 'SIGCONT');
    },
    close: async () => {
      await Promise.all([gateway.stop(), executor.stop(), model.stop(), runner?.stop()]);
      await otlp?.sink.stop();
      await bus.drain();
      await nats.stop();
    },
  };
}

/** The services' environment: as deployed (authenticated, limits raised for the concurrency rounds). */
async function stackEnv(at: {
  nats: string;
  llm: string;
  deployed: boolean;
  otlp?: string;
  work: string;
}): Promise<Record<string, string>> {
  return {
    NATS_URL: at.nats,
    DATABASE_URL: await migratedSqlite(),
    PORT: '0',
    LOG_LEVEL: 'info',
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: at.llm,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    // As deployed: every turn is authenticated and counted against its key's limits (in Redis),
    // with limits raised so one key can stand for the many callers of the concurrency rounds.
    AC_ADMIN_KEY: ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '100000000',
    MAX_CONCURRENT_RUNS_PER_KEY: '100000',
    DAILY_TOKEN_QUOTA_PER_KEY: '1000000000000',
    ...(at.deployed
      ? {
          LOG_FORMAT: 'json',
          OTEL_EXPORTER_OTLP_ENDPOINT: at.otlp!,
          FUNCTIONS_DIR: addFunctionDir(at.work),
        }
      : {}),
  };
}

/** `add` as a custom function file: the runner loads it and runs it in its sandbox, as deployed. */
function addFunctionDir(work: string): string {
  const dir = join(work, 'functions');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'add.mjs'),
    `export default { ...${JSON.stringify(ADD)}, async execute({ a, b }) { return { data: { sum: a + b } }; } };\n`,
  );
  return dir;
}

async function waitForFunction(bus: BusType, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const catalogs = await bus.gather(Routes.fnCatalog, 500);
    if (catalogs.some((c) => c.functions.some((f) => f.name === name))) return;
    if (Date.now() > deadline) throw new Error(`no runner announced '${name}' within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The OTLP/HTTP receiver (bench/chat/otlp-sink.mjs), in its own process: its CPU is not ours. */
async function startOtlpSink(started: Stoppable[]): Promise<{ url: string; sink: Proc }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const spansOut = process.env.SPANS_OUT;
  const sink = await startProcess(
    'otlp-sink',
    [join(ROOT, 'bench/chat/otlp-sink.mjs'), String(port)],
    spansOut ? { SPANS_OUT: spansOut } : {},
    /listening/,
    started,
  );
  return { url: `http://127.0.0.1:${port}`, sink };
}

function serveAdd(bus: BusType): void {
  bus.serve(Routes.fnCatalog, () => ({ provider: 'bench', instance: 'bench', functions: [ADD] }));
  bus.serve(Routes.fnExec('add'), (request) => {
    const { a, b } = request.params as { a: number; b: number };
    return { status: 'success' as const, result: { data: { sum: a + b } }, elapsed_ms: 0 };
  });
}

async function migratedSqlite(): Promise<string> {
  const url = `file:${join(mkdtempSync(join(tmpdir(), 'ac-bench-')), 'bench.db')}`;
  const migrator = await Migrator.open(url, ROOT);
  await migrator.deploy();
  await migrator.close();
  return url;
}
