// V8 flags for the services, A/B: `run.ts --memory-only` and `run.ts --deployed-only` alternately
// with the deployed flags plus a candidate and with the deployed flags alone (A B, then B A), each run
// a fresh stack.
// Build first, then from the repo root:
//   node --import ./bench/protocol/ts-resolve.mjs bench/chat/node-flags.ts [--flag --heap-growing-percent=20] [--memory-rounds 3] [--cpu-rounds 2] [--deployed-turns 400]
// Prints every run's executor peak RSS with 1000 in flight and CPU per deployed turn.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { nodeFlags } from '../../libs/testing/src/node-flags';
import { ROOT } from '../common/processes';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const CANDIDATE = option('flag', '--heap-growing-percent=20');
const MEMORY_ROUNDS = Number(option('memory-rounds', '3'));
const CPU_ROUNDS = Number(option('cpu-rounds', '2'));
const DEPLOYED_TURNS = option('deployed-turns', '400');

const deployedFlags = nodeFlags(ROOT).filter((flag) => flag !== CANDIDATE);
const sides = { with: [...deployedFlags, CANDIDATE], without: deployedFlags };
/** A, B then B, A: neither side always runs first (the load drifts within a round). */
const inTurn = (round: number) => {
  const both = Object.entries(sides);
  return round % 2 === 1 ? both : both.reverse();
};

function bench(flags: string[], mode: string[]): string {
  return execFileSync(
    process.execPath,
    ['--import', './bench/protocol/ts-resolve.mjs', 'bench/chat/run.ts', ...mode],
    { cwd: ROOT, env: { ...process.env, BENCH_NODE_FLAGS: flags.join(' ') }, encoding: 'utf8' },
  );
}

/** The executor's peak RSS with all conversations in flight, MB (the memory section's row). */
function executorPeak(output: string): string {
  return /\| agent-executor \| [^|]+\| [^|]+\| (\d+) MB/.exec(output)?.[1] ?? `? (${output.slice(-300)})`;
}

/** CPU per turn of each service, ms (the deployed section's CPU row). */
function deployedCpu(output: string): string {
  return /CPU[^\n]*/.exec(output)?.[0] ?? `? (${output.slice(-300)})`;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
process.stdout.write(
  `${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model}; candidate ${CANDIDATE}, deployed flags ${deployedFlags.join(' ')}\n`,
);
for (let round = 1; round <= MEMORY_ROUNDS; round++) {
  for (const [side, flags] of inTurn(round)) {
    const peak = executorPeak(bench(flags, ['--memory-only']));
    process.stdout.write(`memory round ${round} ${side}: executor peak ${peak} MB (load ${load()})\n`);
  }
}
for (let round = 1; round <= CPU_ROUNDS; round++) {
  for (const [side, flags] of inTurn(round)) {
    const cpu = deployedCpu(bench(flags, ['--deployed-only', '--deployed-turns', DEPLOYED_TURNS]));
    process.stdout.write(`cpu round ${round} ${side}: ${cpu} (load ${load()})\n`);
  }
}
