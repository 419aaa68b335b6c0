import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelayTaskView } from '@app/contracts';
import { expectEventually, type RedisServer, startRedisServer } from '@app/testing';
import {
  type CountingFunction,
  serveCountingFunction,
} from '../../apps/scheduler/src/testing/scheduler.harness';
import { bearer, type FaultStack, post, startFaultStack } from './fault-stack';
import { lightLoad, servingAgainAfter } from './light-load';

const MAX_RUNS = 3;
const RECOVERY_BUDGET_MS = 5_000;
const outage = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis down for 3 s with a delay due during and one after (gateway, executor, scheduler processes)', () => {
  let redis: RedisServer;
  let stack: FaultStack;
  let fn: CountingFunction;
  let key: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    stack = await startFaultStack({
      services: ['gateway', 'agent-executor', 'scheduler'],
      llmLatencyMs: 100,
      env: { REDIS_URL: redis.url, MAX_CONCURRENT_RUNS_PER_KEY: String(MAX_RUNS) },
    });
    stack.llm.setScript({ fallback: 'Done.' });
    fn = await serveCountingFunction(stack.nats.url);
    key = await stack.key(['chat', 'tasks:read', 'tasks:write']);
  });
  afterAll(async () => {
    await fn?.close();
    await stack?.close();
    await redis?.stop();
  });

  it('fires each delay once, serves chats again soon after Redis is back, and leaks no slot', async () => {
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const delay = (name: string, runAt: string) =>
      post(
        stack.base,
        '/api/v1/delays',
        { name, run_at: runAt, function: fn.name, params: { tag: name }, misfire_policy: 'run_once' },
        bearer(key),
      );
    expect((await delay('due-during', at(2_500))).status).toBe(201);
    expect((await delay('due-after', at(7_000))).status).toBe(201);
    const chat = (signal: AbortSignal) =>
      fetch(`${stack.base}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify({ message: 'ping', agent: 'helper' }),
        signal,
      });
    const load = lightLoad({ chat, chat2: chat }, 20_000);

    await outage(1_000);
    await redis.kill();
    await outage(3_000);
    await redis.start();
    const backAt = Date.now();
    await expectEventually(() => expect(servingAgainAfter(load.samples, 'chat', backAt)).toBeDefined(), {
      timeoutMs: 15_000,
    });
    const get = async (name: string) =>
      (await (
        await fetch(`${stack.base}/api/v1/delays/${name}`, { headers: bearer(key) })
      ).json()) as DelayTaskView;
    const doneAt = async (name: string) =>
      expectEventually(
        async () => {
          expect((await get(name)).status).toBe('completed');
          return Date.now();
        },
        { timeoutMs: 20_000 },
      );
    const duringDone = await doneAt('due-during');
    const afterDone = await doneAt('due-after');
    const samples = await load.stop();

    const chatAgain = servingAgainAfter(samples, 'chat', backAt)!;
    console.info(
      `Redis down 3 s: chat serves again ${chatAgain} ms after it is back; the delay due during it fired ${duringDone - backAt} ms after (the one due after: ${afterDone - backAt} ms)`,
    );
    expect(chatAgain).toBeLessThanOrEqual(RECOVERY_BUDGET_MS);
    expect(samples.filter((s) => s.status === 'deadline' || s.status === 'error')).toEqual([]);
    expect([...new Set(samples.map((s) => s.status))].every((s) => s === 200 || s === 503)).toBe(true);
    expect(fn.callsTagged('due-during')).toHaveLength(1);
    expect(fn.callsTagged('due-after')).toHaveLength(1);

    const full = await Promise.all(
      Array.from({ length: MAX_RUNS }, () =>
        post(stack.base, '/api/v1/chat', { message: 'again', agent: 'helper' }, bearer(key)),
      ),
    );
    expect(full.map((res) => res.status)).toEqual(Array(MAX_RUNS).fill(200));
  }, 90_000);
});
