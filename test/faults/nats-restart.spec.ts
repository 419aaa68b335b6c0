import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { readEvents } from '../chat/chat-stack';
import { bearer, type FaultStack, post, startFaultStack } from './fault-stack';

const MAX_RUNS = 3;
const ANSWER = 'The answer is 42.';

/** The dependency is away for this long: the fault itself, not a wait for a result. */
const outage = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a NATS restart in the middle of a run (gateway and executor processes, a broker of the test own)', () => {
  let stack: FaultStack;
  let key: string;

  beforeAll(async () => {
    stack = await startFaultStack({
      services: ['gateway', 'agent-executor'],
      llmLatencyMs: 3_000,
      env: { MAX_CONCURRENT_RUNS_PER_KEY: String(MAX_RUNS) },
    });
    stack.llm.setScript({ fallback: ANSWER });
    key = await stack.key(['chat']);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers the JSON and the SSE caller from the run, runs it once, and leaks no run slot', async () => {
    const chat = (message: string, stream = false) =>
      post(stack.base, '/api/v1/chat', { message, agent: 'helper', stream }, bearer(key));
    const json = chat('What is six times seven?');
    const sse = chat('And seven times six?', true);
    // both runs are with the model (3 s) when the bus goes away
    await expectEventually(() => expect(stack.llm.requests()).toHaveLength(2));
    await stack.nats.stop();
    await outage(2_000);
    await stack.nats.start();

    const answered = await json;
    expect(answered.status).toBe(200);
    const reply = (await answered.json()) as AgentRunReply;
    expect(reply).toMatchObject({ reply: ANSWER, finish_reason: 'final' });
    expect(reply.run_id).toMatch(/^run_/);

    const streamed = await sse;
    expect(streamed.status).toBe(200);
    const events = await readEvents(streamed);
    const end = events.find((event) => event.event === 'run_end');
    expect(end?.data).toMatchObject({ reply: ANSWER, finish_reason: 'final' });
    expect(events.filter((event) => event.event === 'run_end')).toHaveLength(1);

    const stored = await fetch(`${stack.base}/api/v1/runs/${reply.run_id}`, { headers: bearer(key) });
    expect(((await stored.json()) as RunView).status).toBe('completed');
    // each run reached the model once: neither was executed again
    expect(stack.llm.requests()).toHaveLength(2);

    stack.llm.setScript({ fallback: ANSWER, latencyMs: 0 });
    const full = await Promise.all(Array.from({ length: MAX_RUNS }, (_, i) => chat(`again ${i}`)));
    expect(full.map((res) => res.status)).toEqual(Array(MAX_RUNS).fill(200));
  }, 60_000);

  it('frees the run slot of a caller that goes away while its run goes on', async () => {
    // the runs stay with the model far longer than the slots may take to come free
    stack.llm.setScript({ fallback: ANSWER, latencyMs: 10_000 });
    stack.llm.clearRequests();
    const callers = Array.from({ length: MAX_RUNS }, () => new AbortController());
    const gone = callers.map((caller, i) =>
      fetch(`${stack.base}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify({ message: `leaving ${i}`, agent: 'helper' }),
        signal: caller.signal,
      }).catch(() => undefined),
    );
    await expectEventually(() => expect(stack.llm.requests()).toHaveLength(MAX_RUNS));
    for (const caller of callers) caller.abort();
    await Promise.all(gone);
    // The key's slots are free while those runs are still with the model: the gateway frees each
    // when it sees its caller go, a moment after the caller's own abort. A streamed turn is admitted
    // (200) before its model answers; 5 s is half the runs' time with the model.
    await expectEventually(
      async () => {
        const next = await fetch(`${stack.base}/api/v1/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(key) },
          body: JSON.stringify({ message: 'next', agent: 'helper', stream: true }),
        });
        await next.body?.cancel();
        expect(next.status).toBe(200);
      },
      { timeoutMs: 5_000, intervalMs: 100 },
    );
  }, 30_000);
});
