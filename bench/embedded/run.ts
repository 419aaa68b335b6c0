// The embedded SDK's turn against @openai/agents' turn, both in this process. Build first, then
// from the repo root:
//   npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/embedded/run.ts [--turns 1000] [--write]
// Prints the `## Embedded SDK (bench/embedded)` section of docs/benchmarks.md; --write replaces it there.
import { loadavg } from 'node:os';
import { writeDocSection } from '../common/doc-section';
import { rotated } from '../common/measure';
import { EXPECTED_ANSWER, openAiAgentsTurn } from '../common/openai-agents';
import type { Stoppable } from '../common/processes';
import { startScriptedModel } from '../common/scripted-model';
import { embeddedTurn } from './embedded-agent';
import { vercelAiTurn } from './vercel-ai';
import { embeddedSection } from './report';

const args = process.argv.slice(2);
const at = args.indexOf('--turns');
const TURNS = at >= 0 ? Number(args[at + 1]) : 1_000;
const WARMUP = 50;
const LOAD_AT_START = loadavg()[0];

// Both sides use native tool calls: the first call asks for `add`, the tool's result answers it.
const SCRIPT = {
  rules: [{ match: 'sum', reply: EXPECTED_ANSWER }],
  fallback: { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
};

async function main(): Promise<void> {
  const started: Stoppable[] = [];
  try {
    const model = await startScriptedModel(started);
    await model.setScript(SCRIPT);
    const sides = [embeddedTurn(model.url), openAiAgentsTurn(model.url), vercelAiTurn(model.url)];
    const { samples, cpuMs } = await rotated(
      TURNS,
      sides.map((side) => (i: number) => side(`Add 2 and 3 (${i})`)),
      WARMUP,
    );
    const section = embeddedSection({
      loadAtStart: LOAD_AT_START,
      loadAtEnd: loadavg()[0],
      warmup: WARMUP,
      ours: samples[0],
      theirs: samples[1],
      vercel: samples[2],
      oursCpuMs: cpuMs[0],
      theirsCpuMs: cpuMs[1],
      vercelCpuMs: cpuMs[2],
    });
    process.stdout.write(`${section}\n`);
    if (args.includes('--write')) writeDocSection('Embedded SDK (bench/embedded)', section);
  } finally {
    await Promise.all(started.map((item) => item.stop()));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
