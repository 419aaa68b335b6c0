import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from '../functions/plugins';
import { bearer, type FaultStack, post, startFaultStack } from './fault-stack';
import { lightLoad, servingAgainAfter } from './light-load';

const MAX_RUNS = 4;
const DEADLINE_MS = 20_000;
/** After the dependency is back, the platform serves again within this (docs/benchmarks.md). */
const RECOVERY_BUDGET_MS = 5_000;
const outage = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('NATS down for 3 s under light load (gateway, executor and runner processes)', () => {
  const ns = uniqueNamespace('o');
  let stack: FaultStack;
  let key: string;

  beforeAll(async () => {
    stack = await startFaultStack({
      services: ['gateway', 'agent-executor', 'function-runner'],
      llmLatencyMs: 200,
      env: { MAX_CONCURRENT_RUNS_PER_KEY: String(MAX_RUNS), FUNCTIONS_DIR: pluginFolder(testPlugins(ns)) },
    });
    stack.llm.setScript({ fallback: 'Done.' });
    key = await stack.key(['chat', 'functions:invoke']);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('serves chats and invokes again soon after NATS is back, no request hangs, no slot leaks', async () => {
    const chat = (signal?: AbortSignal) =>
      fetch(`${stack.base}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify({ message: 'ping', agent: 'helper' }),
        signal,
      });
    const invoke = (signal: AbortSignal) =>
      fetch(`${stack.base}/api/v1/functions/${ns}_noop/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify({ params: {} }),
        signal,
      });
    const load = lightLoad({ chat, chat2: chat, invoke, invoke2: invoke }, DEADLINE_MS);
    await outage(1_000);
    await stack.nats.stop();
    await outage(3_000);
    await stack.nats.start();
    const backAt = Date.now();
    const kinds = ['chat', 'chat2', 'invoke', 'invoke2'];
    await expectEventually(
      () =>
        expect(kinds.filter((kind) => servingAgainAfter(load.samples, kind, backAt) === undefined)).toEqual(
          [],
        ),
      { timeoutMs: 15_000 },
    );
    const samples = await load.stop();

    const chatAgain = Math.min(
      ...['chat', 'chat2'].map((kind) => servingAgainAfter(samples, kind, backAt) ?? Infinity),
    );
    const invokeAgain = Math.min(
      ...['invoke', 'invoke2'].map((kind) => servingAgainAfter(samples, kind, backAt) ?? Infinity),
    );
    console.info(
      `NATS down 3 s: chat serves again ${chatAgain} ms, invoke ${invokeAgain} ms after it is back`,
    );
    expect(samples.filter((s) => s.status === 'deadline' || s.status === 'error')).toEqual([]);
    expect(chatAgain).toBeLessThanOrEqual(RECOVERY_BUDGET_MS);
    expect(invokeAgain).toBeLessThanOrEqual(RECOVERY_BUDGET_MS);
    // a failure during the outage is a clear 503, never a 500 or a 504 at some far deadline
    expect(samples.filter((s) => s.status !== 200 && s.status !== 503)).toEqual([]);

    const full = await Promise.all(
      Array.from({ length: MAX_RUNS }, () =>
        post(stack.base, '/api/v1/chat', { message: 'again', agent: 'helper' }, bearer(key)),
      ),
    );
    expect(full.map((res) => res.status)).toEqual(Array(MAX_RUNS).fill(200));
  }, 60_000);
});
