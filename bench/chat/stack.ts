// The platform under measurement: a private nats-server, the scripted model as its own process,
// the built gateway and agent-executor as processes, and the `add` function served by this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Bus as BusType } from '../../libs/bus/src/bus';
import { startNatsServer } from '../../libs/testing/src/nats-server';
import { ADD } from './add-function';

/** Run from the repository root. */
export const ROOT = resolve(process.cwd());
const dist = createRequire(join(ROOT, 'package.json'));
const { Bus } = dist(join(ROOT, 'dist/libs/bus/src/index.js')) as { Bus: typeof BusType };
const { Subjects } = dist(join(ROOT, 'dist/libs/contracts/src/index.js'));
const { Migrator } = dist(join(ROOT, 'dist/libs/persistence/src/index.js'));

/** The API key every benchmark turn presents. */
export const ADMIN_KEY = `ac_bench_${randomBytes(24).toString('base64url')}`;

/** As deployed (deploy/Dockerfile, scripts/start.mjs): a small young generation. */
const SERVICE_FLAGS = ['--max-semi-space-size=2'];

/** `PROFILE=gateway,executor` writes a V8 CPU profile of each named service to /tmp/prof. */
function profiled(service: string): string[] {
  const wanted = (process.env.PROFILE ?? '').split(',').includes(service);
  return [...SERVICE_FLAGS, ...(wanted ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])];
}

export interface Stack {
  gateway: string;
  llm: string;
  /** CPU time (user + system) each process has used so far, in ms. */
  cpuMs(): Record<'gateway' | 'executor' | 'model' | 'bench', number>;
  setScript(script: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const started: { stop(): Promise<void> }[] = [];
  try {
    return await start(started);
  } catch (err) {
    await Promise.all(started.map((item) => item.stop()));
    throw err;
  }
}

async function start(started: { stop(): Promise<void> }[]): Promise<Stack> {
  const nats = await startNatsServer();
  started.push(nats);
  const llmPort = 20_000 + Math.floor(Math.random() * 20_000);
  const llmArgs = [
    'dist/libs/testing/src/scripted-llm/main.js',
    '--port',
    String(llmPort),
    '--host',
    '127.0.0.1',
  ];
  const llmProcess = await startProcess('scripted-llm', llmArgs, {}, /listening/, started);
  const llm = `http://127.0.0.1:${llmPort}/v1`;
  const bus = await Bus.connect({ url: nats.url, name: 'bench' });
  serveAdd(bus);
  await bus.flush();
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: await migratedSqlite(),
    PORT: '0',
    LOG_LEVEL: 'info',
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: llm,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    // As deployed: every turn is authenticated and counted against its key's limits (in Redis),
    // with limits raised so one key can stand for the many callers of the concurrency rounds.
    AC_ADMIN_KEY: ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '100000000',
    MAX_CONCURRENT_RUNS_PER_KEY: '100000',
    DAILY_TOKEN_QUOTA_PER_KEY: '1000000000000',
  };
  const [gateway, executor] = await Promise.all([
    startProcess(
      'gateway',
      [...profiled('gateway'), 'dist/apps/gateway/src/main.js'],
      env,
      / ready\b/,
      started,
    ),
    startProcess(
      'agent-executor',
      [...profiled('executor'), 'dist/apps/agent-executor/src/main.js'],
      env,
      / ready\b/,
      started,
    ),
  ]);
  const port = /http:\/\/[^:\s"]+:(\d+)/.exec(gateway.output())?.[1];
  return {
    gateway: `http://127.0.0.1:${port}`,
    llm,
    cpuMs: () => ({
      gateway: processCpuMs(gateway.pid),
      executor: processCpuMs(executor.pid),
      model: processCpuMs(llmProcess.pid),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    }),
    setScript: async (script) => {
      const res = await fetch(`http://127.0.0.1:${llmPort}/_script`, {
        method: 'PUT',
        body: JSON.stringify(script),
      });
      if (!res.ok) throw new Error(`the scripted model refused the script: ${await res.text()}`);
    },
    close: async () => {
      await Promise.all([gateway.stop(), executor.stop(), llmProcess.stop()]);
      await bus.drain();
      await nats.stop();
    },
  };
}

function serveAdd(bus: BusType): void {
  bus.serve(Subjects.fnCatalog, () => ({ provider: 'bench', instance: 'bench', functions: [ADD] }));
  bus.serve(Subjects.fnExec('add'), (data: unknown) => {
    const { a, b } = (data as { params: { a: number; b: number } }).params;
    return { status: 'success', result: { data: { sum: a + b } }, elapsed_ms: 0 };
  });
}

async function migratedSqlite(): Promise<string> {
  const url = `file:${join(mkdtempSync(join(tmpdir(), 'ac-bench-')), 'bench.db')}`;
  const migrator = await Migrator.open(url, ROOT);
  await migrator.deploy();
  await migrator.close();
  return url;
}

/** utime + stime from /proc/<pid>/stat (Linux), in ms. */
function processCpuMs(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

const CLOCK_TICKS_PER_S = 100;

interface Proc {
  pid: number | undefined;
  output(): string;
  stop(): Promise<void>;
}

async function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  started: { stop(): Promise<void> }[],
): Promise<Proc> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'text', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const proc: Proc = {
    pid: child.pid,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
  started.push(proc);
  const deadline = Date.now() + 30_000;
  while (!ready.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}
