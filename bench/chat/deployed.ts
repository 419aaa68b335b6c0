// The turn as an operator runs it: tracing exported over OTLP, JSON info logs to a file, `add` a
// sandboxed custom function in a function-runner, the caller on Node's built-in fetch. The
// sequential round takes one turn of each side in turn: the platform, the in-process SDK and the
// deployed peer (a Mastra server, mastra-peer.ts); then rounds of concurrent conversations (1 s a
// model call), the platform's and the peer's alternating.
import { setTimeout as delay } from 'node:timers/promises';
import { ramped, rotated, type Sample } from '../common/measure';
import type { Stoppable } from '../common/processes';
import { startMastra } from './mastra-peer';
import { startSdk } from './sdk';
import { ADMIN_KEY, startStack } from './stack';

export interface DeployedResult {
  ours: Sample;
  sdk: Sample;
  mastra: Sample;
  /** CPU per turn, ms: the platform's three services, the SDK's whole turn, the Mastra server's process. */
  cpu: { gateway: number; executor: number; runner: number; sdk: number; mastra: number };
  /** Concurrent conversations of two turns each, 1 s a model call: the rounds of each side, in the order run. */
  concurrent: { conversations: number; ours: Sample[]; mastra: Sample[] };
  /** The platform's concurrent turns whose `add` call failed with `unavailable`. */
  unavailableCalls: number;
  /** How long the executor was held in each of the platform's concurrent rounds (0: not held). */
  holdExecutorMs: number;
  mastraRssBytes: number;
}

export async function measureDeployed(
  turns: number,
  warmup: number,
  script: { rules: object[]; fallback: unknown },
  sdkAsk: string,
  { conversations = 200, holdExecutorMs = 0 } = {},
): Promise<DeployedResult> {
  const started: Stoppable[] = [];
  const stack = await startStack('deployed');
  const sdk = startSdk(stack.llm);
  let unavailableCalls = 0;
  try {
    const mastra = await startMastra(stack.llm, started);
    await stack.setScript(script);
    const ours = platformTurn(stack.gateway, () => (unavailableCalls += 1));
    // a thread of its own per conversation, as the platform's turns open a session each
    const peer = (i: number) =>
      mastra.turn(`${sdkAsk} (${i})`, `thread_${i}_${Math.random().toString(36).slice(2)}`);
    let before = { ...stack.cpuMs(), mastra: mastra.cpuMs() };
    const { samples, cpuMs } = await rotated(
      turns,
      [(i) => ours(i), (i) => sdk.turn(`${sdkAsk} (${i})`), peer],
      warmup,
      () => {
        before = { ...stack.cpuMs(), mastra: mastra.cpuMs() };
      },
    );
    const after = { ...stack.cpuMs(), mastra: mastra.cpuMs() };
    const perTurn = (key: keyof typeof after) => (after[key] - before[key]) / turns;
    const mastraRssBytes = mastra.rssBytes();

    await stack.setScript({ ...script, latencyMs: 1_000 });
    const sequentialUnavailable = unavailableCalls;
    const concurrent = { conversations, ours: [] as Sample[], mastra: [] as Sample[] };
    for (let round = 0; round < 2; round++) {
      // held 2 s in: the first turns' `add` calls are in flight, their model steps done
      const held =
        holdExecutorMs > 0 ? delay(2_000).then(() => stack.holdExecutor(holdExecutorMs)) : undefined;
      concurrent.ours.push(await ramped(conversations, 2_000, 2, (i, state) => ours(i, state)));
      await held;
      concurrent.mastra.push(
        await ramped(conversations, 2_000, 2, (i, state) => {
          state.sessionId ??= `thread_${round}_${i}`;
          return mastra.turn(`${sdkAsk} (${i})`, state.sessionId);
        }),
      );
    }
    return {
      ours: samples[0],
      sdk: samples[1],
      mastra: samples[2],
      cpu: {
        gateway: perTurn('gateway'),
        executor: perTurn('executor'),
        runner: perTurn('runner'),
        sdk: cpuMs[1],
        mastra: perTurn('mastra'),
      },
      concurrent,
      unavailableCalls: unavailableCalls - sequentialUnavailable,
      holdExecutorMs,
      mastraRssBytes,
    };
  } finally {
    await sdk.close();
    await stack.close();
    await Promise.all(started.map((item) => item.stop()));
  }
}

/** One chat turn through the gateway; `onUnavailable` is told when its `add` call got `unavailable`. */
export function platformTurn(gateway: string, onUnavailable: () => void) {
  return async (i: number, state: { sessionId?: string } = {}) => {
    const res = await fetch(`${gateway}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({
        message: `What is 2 + 3? (${i})`,
        ...(state.sessionId ? { session_id: state.sessionId } : {}),
      }),
    });
    const body = (await res.json()) as {
      session_id: string;
      finish_reason?: string;
      function_calls?: { status: string; result?: { code?: string } }[];
    };
    if (body.function_calls?.[0]?.result?.code === 'unavailable') onUnavailable();
    if (
      res.status !== 200 ||
      body.finish_reason !== 'final' ||
      body.function_calls?.[0]?.status !== 'success'
    )
      // the function call first: its error's message is what tells a failed turn's cause
      throw new Error(
        `turn ${i} failed: ${res.status} ${JSON.stringify(body.function_calls?.[0] ?? body).slice(0, 280)}`,
      );
    state.sessionId = body.session_id;
  };
}
