// The transports a deployed chat turn crosses on its way, each timed alone on this machine, against
// the in-process SDK's whole turn in the same rounds (alternating, so both see the same load): HTTP
// into the gateway (Node's fetch → node:http), the gateway's admission in Redis (one ioredis script
// round trip), a NATS request and its reply between two processes (twice a turn: `agent.run`, then
// `fn.exec`), and the function sandbox's IPC round trip (a forked child, JSON serialization). Their sum
// is what a turn through the deployed platform pays before any work of its own: the floor under the
// "≤ 2.3× the SDK" latency target. Then the CPU of each, in blocks of `--cpu-block` round trips (the
// caller's from process.cpuUsage, the far end's from /proc), counted as bench/chat counts a deployed
// turn: the services' sides only (the gateway answers HTTP and calls Redis; both ends of each NATS hop
// and of the IPC are services; the brokers and the client are not counted): the floor under "CPU ≤ 1.5×".
// Build first (the scripted model runs from dist), then:
//   node --import ./bench/protocol/ts-resolve.mjs bench/chat/hops.ts [--turns 1000] [--cpu-block 2000]
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { startNatsServer } from '../../libs/testing/src/nats-server';
import { openAiAgentsTurn } from '../common/openai-agents';
import { percentile } from '../common/measure';
import { processCpuMs, type Stoppable, startProcess } from '../common/processes';
import { startScriptedModel } from '../common/scripted-model';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const TURNS = option('turns', 1000);
const CPU_BLOCK = option('cpu-block', 2000);
const CPU_REPEATS = 3;
const WARMUP = 100;
const REQUEST = JSON.stringify({ message: 'What is 2 + 3?', principal: 'key_0', pad: 'x'.repeat(1_000) });
const ADMIT = `local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], 60000) return n`;

type Hop = () => Promise<unknown>;

/** A transport and what a deployed turn counts of it: its caller's side, its far end's, how many a turn. */
interface Transport {
  hop: Hop;
  /** The far end's process, whose CPU is read from /proc. */
  farPid?: number;
  counted: { caller: boolean; far: boolean; perTurn: number };
}

const SDK = 'SDK turn (in process, two model calls)';

/** `list` begun at its `by`-th item (any integer), the rest in order: no item always follows the same one. */
function turnedBy<T>(list: T[], by: number): T[] {
  const at = ((by % list.length) + list.length) % list.length;
  return [...list.slice(at), ...list.slice(0, at)];
}

async function main(): Promise<void> {
  const started: Stoppable[] = [];
  try {
    const hops = await startHops(started);
    const times = new Map<string, number[]>([...Object.keys(hops)].map((name) => [name, []]));
    for (let i = -WARMUP; i < TURNS; i++) {
      // Each round in another order: no side always follows the same one.
      for (const [name, { hop }] of turnedBy(Object.entries(hops), i)) {
        const begun = performance.now();
        await hop();
        if (i >= 0) times.get(name)!.push(performance.now() - begun);
      }
    }
    report(hops, times);
    reportCpu(hops, await cpuBlocks(hops));
  } finally {
    await Promise.all(started.map((item) => item.stop()));
  }
}

async function startHops(started: Stoppable[]): Promise<Record<string, Transport>> {
  const model = await startScriptedModel(started);
  // As bench/chat/run.ts scripts the SDK's side: a call of `add`, then the answer.
  await model.setScript({
    rules: [{ match: 'sum', reply: 'The sum is 5.' }],
    fallback: { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
  });
  const sdkTurn = openAiAgentsTurn(model.url);
  const http = await startProcess(
    'hop-http',
    ['bench/chat/hop-peer.mjs', 'http'],
    {},
    /listening \d+/,
    started,
  );
  const httpUrl = `http://127.0.0.1:${/listening (\d+)/.exec(http.output())![1]}/api/v1/chat`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  await redis.connect();
  started.push({ stop: async () => void redis.disconnect() });
  redis.defineCommand('hopAdmit', { numberOfKeys: 1, lua: ADMIT });
  const admit = redis as Redis & { hopAdmit(key: string): Promise<number> };
  const nats = await startNatsServer({ jetstream: false });
  started.push(nats);
  const natsPeer = await startProcess(
    'hop-nats',
    ['bench/chat/hop-peer.mjs', 'nats', nats.url],
    {},
    /listening/,
    started,
  );
  const nc = await connect({ servers: nats.url.replace(/^nats:\/\//, '') });
  started.push({ stop: () => nc.close() });
  const child = fork('bench/chat/hop-peer.mjs', [], { serialization: 'json', stdio: 'ignore' });
  started.push({ stop: async () => void child.kill() });
  const ipc = (message: object) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });
  const body = new TextEncoder().encode(REQUEST);
  const both = (perTurn: number) => ({ caller: true, far: true, perTurn });
  return {
    [SDK]: { hop: () => sdkTurn('Add 2 and 3'), counted: { caller: true, far: false, perTurn: 1 } },
    'HTTP request in (fetch → node:http)': {
      hop: async () =>
        (
          await fetch(httpUrl, {
            method: 'POST',
            body: REQUEST,
            headers: { 'content-type': 'application/json' },
          })
        ).json(),
      farPid: http.pid,
      counted: { caller: false, far: true, perTurn: 1 },
    },
    'Redis script round trip': {
      hop: () => admit.hopAdmit('bench:hops'),
      counted: { caller: true, far: false, perTurn: 1 },
    },
    'NATS request and reply': {
      hop: () => nc.request('hop.echo', body, { timeout: 5_000 }),
      farPid: natsPeer.pid,
      counted: both(2),
    },
    'sandbox IPC round trip': {
      hop: () => ipc({ fn: 'add', params: { a: 2, b: 3 } }),
      farPid: child.pid,
      counted: both(1),
    },
  };
}

interface CpuOf {
  caller: number;
  far: number;
}

/** CPU ms a round trip, each side, from blocks of CPU_BLOCK of one transport at a time, in turn. */
async function cpuBlocks(hops: Record<string, Transport>): Promise<Map<string, CpuOf>> {
  const sums = new Map<string, CpuOf>(Object.keys(hops).map((name) => [name, { caller: 0, far: 0 }]));
  const names = Object.keys(hops);
  for (let repeat = 0; repeat < CPU_REPEATS; repeat++) {
    for (const name of turnedBy(names, repeat)) {
      const { hop, farPid } = hops[name];
      const [callerBefore, farBefore] = [process.cpuUsage(), farPid ? processCpuMs(farPid) : 0];
      for (let i = 0; i < CPU_BLOCK; i++) await hop();
      const caller = process.cpuUsage(callerBefore);
      const sum = sums.get(name)!;
      sum.caller += (caller.user + caller.system) / 1000;
      sum.far += farPid ? processCpuMs(farPid) - farBefore : 0;
    }
  }
  const per = CPU_BLOCK * CPU_REPEATS;
  return new Map(
    [...sums].map(([name, { caller, far }]) => [name, { caller: caller / per, far: far / per }]),
  );
}

function reportCpu(hops: Record<string, Transport>, cpu: Map<string, CpuOf>): void {
  console.log(
    `\n| CPU a round trip (${CPU_REPEATS} blocks of ${CPU_BLOCK} each, in turn) | caller ms | far end ms | counted a deployed turn |\n| --- | ---: | ---: | --- |`,
  );
  let floor = 0;
  for (const [name, { caller, far }] of cpu) {
    if (name === SDK) {
      console.log(`| ${name} | ${caller.toFixed(3)} | | the SDK's side |`);
      continue;
    }
    const { counted } = hops[name];
    const ms = counted.perTurn * ((counted.caller ? caller : 0) + (counted.far ? far : 0));
    floor += ms;
    const sides = [counted.caller && 'caller', counted.far && 'far end'].filter(Boolean).join(' + ');
    console.log(
      `| ${name} | ${caller.toFixed(3)} | ${far ? far.toFixed(3) : ''} | ${counted.perTurn} × ${sides} = ${ms.toFixed(3)} ms |`,
    );
  }
  const sdk = cpu.get(SDK)!.caller;
  console.log(
    `\nCPU floor: ${floor.toFixed(2)} ms a turn; an SDK turn plus it = ${((sdk + floor) / sdk).toFixed(2)} × the SDK turn's CPU (${sdk.toFixed(2)} ms).`,
  );
}

function report(hops: Record<string, Transport>, times: Map<string, number[]>): void {
  const p50 = (name: string) => percentile(times.get(name)!, 50);
  const mean = (name: string) => times.get(name)!.reduce((a, b) => a + b, 0) / TURNS;
  console.log(`| round trip (${TURNS} each, alternating) | p50 ms | mean ms |\n| --- | ---: | ---: |`);
  for (const name of times.keys())
    console.log(`| ${name} | ${p50(name).toFixed(3)} | ${mean(name).toFixed(3)} |`);
  const crossed = [...times.keys()].filter((name) => name !== SDK);
  const floor = (at: (name: string) => number) =>
    crossed.reduce((sum, name) => sum + hops[name].counted.perTurn * at(name), 0);
  for (const [label, at] of [
    ['p50', p50],
    ['mean', mean],
  ] as const) {
    const ratio = (at(SDK) + floor(at)) / at(SDK);
    console.log(
      `\nTransport floor (${label}): HTTP + Redis + 2 × NATS + IPC = ${floor(at).toFixed(2)} ms; ` +
        `an SDK turn plus it = ${ratio.toFixed(2)} × the SDK turn (${at(SDK).toFixed(2)} ms).`,
    );
  }
  console.log(
    `\n${cpus()[0]?.model ?? '?'}, ${cpus().length} cores, Node ${process.version}, load ${loadavg()[0].toFixed(1)}, ${new Date().toISOString()}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
