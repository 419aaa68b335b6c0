// The deployed sequential round alone, the platform against the in-process SDK (no deployed peer,
// no concurrent rounds), for A/B runs of the platform's own work per turn. Build first, then:
//   node --import ./bench/protocol/ts-resolve.mjs bench/chat/turn-cpu.ts [--turns 300] [--warmup 50]
// Prints one line: each service's CPU per turn, the SDK's, latency p50 and p99 of both, their ratios and the
// 1-minute load average at the start and the end. With PROFILE=gateway,executor,runner as run.ts.
import { loadavg } from 'node:os';
import { percentile, rotated } from '../common/measure';
import { platformTurn } from './deployed';
import { startSdk } from './sdk';
import { startStack } from './stack';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const TURNS = option('turns', 300);
const WARMUP = option('warmup', 50);
const SDK_ASK = 'Add 2 and 3';
const ADD_CALL = { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
const SCRIPT = {
  rules: [
    { match: 'sum', reply: 'The sum is 5.' },
    { match: SDK_ASK, reply: ADD_CALL },
  ],
  fallback: '<call name="add"><p>a: 2</p><p>b: 3</p></call>',
};

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0];
  const stack = await startStack('deployed');
  const sdk = startSdk(stack.llm);
  try {
    await stack.setScript(SCRIPT);
    let failed = 0;
    const ours = platformTurn(stack.gateway, () => (failed += 1));
    let before = stack.cpuMs();
    const { samples, cpuMs } = await rotated(
      TURNS,
      [(i) => ours(i), (i) => sdk.turn(`${SDK_ASK} (${i})`)],
      WARMUP,
      () => {
        before = stack.cpuMs();
      },
    );
    const after = stack.cpuMs();
    const per = (key: 'gateway' | 'executor' | 'runner') => (after[key] - before[key]) / TURNS;
    const cpu = per('gateway') + per('executor') + per('runner');
    const [p50, sdkP50] = [percentile(samples[0].ms, 50), percentile(samples[1].ms, 50)];
    const [p99, sdkP99] = [percentile(samples[0].ms, 99), percentile(samples[1].ms, 99)];
    const f = (n: number) => n.toFixed(2);
    process.stdout.write(
      `cpu ${f(cpu)} ms (gateway ${f(per('gateway'))} + executor ${f(per('executor'))} + runner ${f(per('runner'))}) ` +
        `sdk ${f(cpuMs[1])} ratio ${f(cpu / cpuMs[1])}; p50 ${f(p50)} ms sdk ${f(sdkP50)} ratio ${f(p50 / sdkP50)}; ` +
        `p99 ${f(p99)} ms sdk ${f(sdkP99)} ratio ${f(p99 / sdkP99)}; ` +
        `failures ${samples[0].failures + samples[1].failures}; load ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}\n`,
    );
  } finally {
    await sdk.close();
    await stack.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
