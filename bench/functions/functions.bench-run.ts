import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { Bus } from '@app/bus';
import { NO_BODY, replyOf, route, Routes, Subjects } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry } from '@app/functions';
import { Logger } from '@app/observability';
import { expectEventually, REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import { builtSandboxScript, SandboxProcess } from '../../apps/function-runner/src/testing/sandbox';
import { percentiles, sequentialLatencies, throughput } from './measure';
import { type BenchResults, formatSection, writeSection } from './report';

const URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CALLS = 5_000;
const WARMUP = 500;
const WAIT_CALLS = 2_000;
const IN_FLIGHT = 64;
const PER_RUNNER = 16;
const ROUNDS = 3;
const ns = `b${Date.now().toString(36)}`;
const quiet = new Logger({ service: 'bench', level: 'error', format: 'json', write: () => undefined });

class NoParams {}

function pluginFolder(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-bench-fns-')));
  const plugin = (name: string, body: string) =>
    `export default { name: '${ns}_${name}', description: '${name}', parameters: { type: 'object', properties: {} }, ${body} };`;
  writeFileSync(join(dir, 'noop.mjs'), plugin('noop', 'async execute() { return { message: "ok" }; }'));
  writeFileSync(
    join(dir, 'wait.mjs'),
    plugin('wait', 'execute() { return new Promise((r) => setTimeout(() => r({ message: "ok" }), 50)); }'),
  );
  return dir;
}

describe('functions benchmark', () => {
  const runners: ServiceProcess[] = [];
  const buses: Bus[] = [];
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    for (const bus of buses) await bus.drain();
  });

  async function connect(name: string): Promise<Bus> {
    const bus = await Bus.connect({ url: URL, name });
    buses.push(bus);
    return bus;
  }

  it('measures call overhead and throughput', async () => {
    const bus = await connect('bench-client');
    bus.serve(Routes.fnCallsRecord, ({ calls }) => ({ recorded: calls.length }));
    const client = new FunctionClient(bus);
    const measure = (call: () => Promise<unknown>) =>
      sequentialLatencies(call, CALLS, WARMUP).then(percentiles);
    const results: BenchResults = {
      calls: CALLS,
      warmup: WARMUP,
      overhead: [],
      perRunner: PER_RUNNER,
      inFlight: IN_FLIGHT,
      waitCalls: WAIT_CALLS,
      one: [],
      two: [],
    };

    // nothing parsed, nothing validated: the bus alone
    const bare = route(Subjects.fnExec(`${ns}_floor`), NO_BODY, replyOf<object>(), { timeoutMs: 5_000 });
    bus.serve(bare, () => ({}));
    await bus.flush();
    const floor = () => bus.request(bare);
    results.overhead.push({ label: 'NATS request/reply alone (floor)', ...(await measure(floor)) });

    const host = await inProcessHost(await connect('bench-host'));
    const inProcess = () => client.call(`${ns}_inproc`, {}, { timeoutMs: 5_000 });
    results.overhead.push({
      label: 'FunctionHost in the bench process, no sandbox (bus, validation, limiter, call record)',
      ...(await measure(inProcess)),
    });
    await host.stop(1_000);

    const dir = pluginFolder();
    const env = {
      FUNCTIONS_DIR: dir,
      FUNCTIONS_CONCURRENCY: String(PER_RUNNER),
      FUNCTIONS_SANDBOX_WORKERS: String(PER_RUNNER),
    };
    runners.push(await startService('function-runner', env));
    const sandboxed = () => client.call(`${ns}_noop`, {}, { timeoutMs: 5_000 });
    results.overhead.push({
      label: 'function-runner process, sandboxed custom no-op',
      ...(await measure(sandboxed)),
    });
    results.sandboxStart = await sandboxStartTimes(dir);

    const wait = () => client.call(`${ns}_wait`, {}, { timeoutMs: 60_000 });
    await throughput(wait, 200, IN_FLIGHT);
    for (let round = 0; round < ROUNDS; round++) {
      results.one.push(await throughput(wait, WAIT_CALLS, IN_FLIGHT));
      const second = await startService('function-runner', env);
      runners.push(second);
      await servedBy(bus, 2);
      await throughput(wait, 400, IN_FLIGHT);
      results.two.push(await throughput(wait, WAIT_CALLS, IN_FLIGHT));
      await second.stop();
      await servedBy(bus, 1);
    }

    const section = formatSection(results);
    process.stdout.write(`\n${section}\n`);
    if (process.env.BENCH_WRITE === '1') writeSection(join(REPO_ROOT, 'docs/benchmarks.md'), section);
  });
});

async function inProcessHost(bus: Bus): Promise<FunctionHost> {
  const registry = new FunctionRegistry(30_000);
  const noop: AgentFunction = {
    name: `${ns}_inproc`,
    description: 'noop',
    params: NoParams,
    execute: async () => ({ message: 'ok' }),
  };
  registry.setGroup('builtin', [noop]);
  const host = new FunctionHost({
    bus,
    registry,
    logger: quiet,
    provider: `bench-${ns}`,
    instance: 'h',
    concurrency: 64,
  });
  await host.start();
  return host;
}

/** Waits until exactly `count` runners offer the bench's functions. */
async function servedBy(bus: Bus, count: number): Promise<void> {
  await expectEventually(async () => {
    const catalog = await bus.gather(Routes.fnCatalog, 200);
    const serving = catalog.filter((c) => c.functions.some((f) => f.name === `${ns}_wait`)).length;
    if (serving !== count)
      throw new Error(`${serving} runners serve the bench functions, waiting for ${count}`);
  });
}

/** What a fork per call would cost: a sandbox process from spawn to ready. */
async function sandboxStartTimes(dir: string) {
  const script = builtSandboxScript();
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const p = await SandboxProcess.spawn({ script, dir, memoryMb: 128, prefix: [], logger: quiet });
    samples.push(performance.now() - started);
    p.kill();
    await p.exited;
  }
  return percentiles(samples);
}
