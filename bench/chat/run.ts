// Chat-turn benchmarks: the budgets are in docs/benchmarks.md. Build first, then from the repo root:
//   npm run build && node --import ./bench/protocol/ts-resolve.mjs bench/chat/run.ts [--turns 1000] [--concurrent 1000] [--deployed-turns 500] [--write]
// `--deployed-only` runs only the deployed profile's round (with PROFILE=executor,gateway,runner for CPU profiles);
// with it, `--deployed-conversations N` (200) and `--hold-executor MS` (the executor held that long, SIGSTOP, 2 s into
// each of the platform's concurrent rounds, as a loaded machine holds a starved caller);
// `--memory-only` only the RSS rounds (idle, 100 and --concurrent conversations in flight).
// Prints the `## Chat (bench/chat)` section of docs/benchmarks.md; --write replaces it there.
import { loadavg } from 'node:os';
import { writeDocSection } from '../common/doc-section';
import { concurrent, interleaved, ramped } from '../common/measure';
import { measureDeployed } from './deployed';
import { postJson } from './http-client';
import { peakRss } from './memory';
import { type Cpu, deployedSection, memorySection, report } from './report';
import { startSdk } from './sdk';
import { ADMIN_KEY, type Stack, startStack } from './stack';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const TURNS = option('turns', 1_000);
const DEPLOYED_TURNS = option('deployed-turns', 500);
const CONVERSATIONS = option('concurrent', 1_000);
const DEPLOYED_ROUNDS = {
  conversations: option('deployed-conversations', 200),
  holdExecutorMs: option('hold-executor', 0),
};
const LATENCY_MS = 1_000;
const MODEL_CALLS_PER_TURN = 2;
const WARMUP = 50;

const TURNS_EACH = 2;
// Rules, not ordered replies: a session's second turn carries the first one's messages.
const answer = [{ match: 'sum', reply: 'The sum is 5.' }];
const XML_SCRIPT = { rules: answer, fallback: '<call name="add"><p>a: 2</p><p>b: 3</p></call>' };
const ADD_CALL = { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
const NATIVE_SCRIPT = { rules: answer, fallback: ADD_CALL };
// Both sides at once, for the interleaved sequential round: the SDK asks in other words.
const SDK_ASK = 'Add 2 and 3';
const BOTH_SCRIPT = {
  rules: [...answer, { match: SDK_ASK, reply: ADD_CALL }],
  fallback: XML_SCRIPT.fallback,
};

const LOAD_AT_START = loadavg()[0];

async function main(): Promise<void> {
  if (args.includes('--deployed-only')) {
    const deployed = await measureDeployed(DEPLOYED_TURNS, WARMUP, BOTH_SCRIPT, SDK_ASK, DEPLOYED_ROUNDS);
    process.stdout.write(`${deployedSection(deployed)}\n`);
    return;
  }
  if (args.includes('--memory-only')) {
    process.stdout.write(
      `${memorySection({ conversations: CONVERSATIONS, memory: await measureMemory() })}\n`,
    );
    return;
  }
  const stack = await startStack();
  try {
    const idle = stack.rssBytes();
    const ours = chatTurn(stack);
    const sdk = startSdk(stack.llm);
    const theirs = (i: number) => sdk.turn(`${SDK_ASK} (${i})`);

    await stack.setScript(BOTH_SCRIPT);
    let cpuBefore = stack.cpuMs();
    const sequential = await interleaved(
      TURNS,
      (i) => ours(i),
      theirs,
      WARMUP,
      () => {
        cpuBefore = stack.cpuMs();
      },
    );
    const cpuAfter = stack.cpuMs();
    const perTurn = (key: keyof Cpu) => (cpuAfter[key] - cpuBefore[key]) / TURNS;

    const rampMs = LATENCY_MS * MODEL_CALLS_PER_TURN;
    const { at100, atAll } = await loadRounds(stack);
    const oursBurst = await concurrent(CONVERSATIONS, (i) => ours(i));
    await stack.setScript({ ...NATIVE_SCRIPT, latencyMs: LATENCY_MS });
    const sdkConcurrent = await ramped(CONVERSATIONS, rampMs, TURNS_EACH, (i) => theirs(i));
    const sdkBurst = await concurrent(CONVERSATIONS, theirs);
    await sdk.close();
    await stack.close();

    const deployed = await measureDeployed(DEPLOYED_TURNS, WARMUP, BOTH_SCRIPT, SDK_ASK, DEPLOYED_ROUNDS);

    const section = report({
      loadAtStart: LOAD_AT_START,
      conversations: CONVERSATIONS,
      turnsEach: TURNS_EACH,
      latencyMs: LATENCY_MS,
      modelCallsPerTurn: MODEL_CALLS_PER_TURN,
      oursSequential: sequential.a,
      sdkSequential: sequential.b,
      oursConcurrent: atAll.result,
      sdkConcurrent,
      oursBurst,
      sdkBurst,
      cpu: {
        gateway: perTurn('gateway'),
        executor: perTurn('executor'),
        client: sequential.aLocalCpuMs,
        sdk: sequential.bLocalCpuMs,
        modelBoth: perTurn('model'),
      },
      memory: { idle, at100: at100.peak, atAll: atAll.peak },
      deployed,
    });
    process.stdout.write(`${section}\n`);
    if (args.includes('--write')) writeDocSection('Chat (bench/chat)', section);
  } finally {
    await stack.close().catch(() => undefined);
  }
}

/** One platform turn through the gateway; with `state`, the next turn goes on in the same session. */
function chatTurn(stack: Stack) {
  return async (i: number, state: { sessionId?: string } = {}) => {
    const res = await postJson(
      `${stack.gateway}/api/v1/chat`,
      { message: `What is 2 + 3? (${i})`, ...(state.sessionId ? { session_id: state.sessionId } : {}) },
      { authorization: `Bearer ${ADMIN_KEY}` },
    );
    const body = res.body as { session_id: string; finish_reason?: string; function_calls?: unknown[] };
    if (res.status !== 200 || body.finish_reason !== 'final' || body.function_calls?.length !== 1) {
      throw new Error(`turn ${i} failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    state.sessionId = body.session_id;
  };
}

/** 100, then all the conversations in flight at once (1 s a model call), RSS sampled throughout. */
async function loadRounds(stack: Stack) {
  const ours = chatTurn(stack);
  const rampMs = LATENCY_MS * MODEL_CALLS_PER_TURN;
  await stack.setScript({ ...XML_SCRIPT, latencyMs: LATENCY_MS });
  const at100 = await peakRss(stack, ramped(100, rampMs, 1, ours));
  const atAll = await peakRss(stack, ramped(CONVERSATIONS, rampMs, TURNS_EACH, ours));
  return { at100, atAll };
}

/** The RSS rounds alone, on a stack of their own: idle, then the peaks with 100 and with all conversations in flight. */
async function measureMemory() {
  const stack = await startStack();
  try {
    const idle = stack.rssBytes();
    const { at100, atAll } = await loadRounds(stack);
    return { idle, at100: at100.peak, atAll: atAll.peak };
  } finally {
    await stack.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
