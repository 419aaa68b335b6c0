import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expectEventually, gatewayUrl, type ServiceProcess, startService } from '@app/testing';
import { type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_test_admin_key_0123456789abcdefghij';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the authenticated gateway (gateway, executor and scheduler processes, real NATS, Redis, SQLite)', () => {
  let stack: ChatStack;
  let base: string;
  let scheduler: ServiceProcess;

  const createKey = async (
    body: Record<string, unknown>,
  ): Promise<{ id: string; key: string; principal: string }> => {
    const res = await post(base, '/api/v1/keys', body, bearer(ADMIN_KEY));
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; key: string; principal: string };
  };
  const get = (path: string, key?: string) => fetch(`${base}${path}`, { headers: key ? bearer(key) : {} });

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [
        {
          name: 'add',
          params: { a: { type: 'number' }, b: { type: 'number' } },
          run: async () => ({ data: { sum: 8 } }),
        },
      ],
      agents: () => [{ name: 'approver', mode: 'plan', allowed_tools: ['add'], plan_approval: true }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, MAX_CONCURRENT_RUNS_PER_KEY: '2' },
    });
    base = stack.base;
    scheduler = await startService('scheduler', {
      ...stack.env,
      SCHEDULER_QUEUE_PREFIX: `auth-${randomUUID().slice(0, 8)}`,
    });
  });
  afterAll(async () => {
    await scheduler?.stop();
    await stack?.close();
  });

  it('keeps /health open and everything else closed without a key', async () => {
    expect((await get('/health/live')).status).toBe(200);
    const res = await get('/api/v1/functions');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 'unauthorized', message: expect.stringMatching(/missing API key/) },
    });
  });

  it('refuses a malformed header, an unknown key and a revoked key with 401', async () => {
    const malformed = await fetch(`${base}/api/v1/functions`, { headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(/malformed/);
    expect((await get('/api/v1/functions', 'ac_not_a_real_key_at_all_123456')).status).toBe(401);
    const { id, key } = await createKey({ name: 'short-lived', scopes: ['functions:read'] });
    expect((await get('/api/v1/functions', key)).status).not.toBe(401);
    const revoked = await fetch(`${base}/api/v1/keys/${id}`, {
      method: 'DELETE',
      headers: bearer(ADMIN_KEY),
    });
    expect(revoked.status).toBe(204);
    expect((await get('/api/v1/functions', key)).status).toBe(401);
  });

  it('answers 403 naming the scope a key lacks', async () => {
    const { key } = await createKey({ name: 'reader', scopes: ['functions:read'] });
    const res = await post(base, '/api/v1/chat', { message: 'hi' }, bearer(key));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/'chat' scope/);
    expect((await post(base, '/api/v1/keys', { name: 'x', scopes: ['chat'] }, bearer(key))).status).toBe(403);
  });

  it('shows a key once: lists carry neither the key nor its hash', async () => {
    const { key } = await createKey({ name: 'once', scopes: ['chat'] });
    const listed = await (await get('/api/v1/keys', ADMIN_KEY)).text();
    expect(listed).not.toContain(key);
    expect(listed).not.toMatch(/"hash"/);
    expect(listed).toMatch(/"prefix":"ac_/);
  });

  it("hides one principal's sessions and runs from another: 404, never 403", async () => {
    const alice = await createKey({ name: 'alice', scopes: ['chat'], principal: 'alice' });
    const bob = await createKey({ name: 'bob', scopes: ['chat'], principal: 'bob' });
    stack.llm.setScript({ replies: ['Hello Alice.'] });
    const turn = await post(base, '/api/v1/chat', { message: 'I am Alice' }, bearer(alice.key));
    expect(turn.status).toBe(200);
    const reply = (await turn.json()) as AgentRunReply;
    expect((await get(`/api/v1/sessions/${reply.session_id}`, alice.key)).status).toBe(200);
    expect((await get(`/api/v1/runs/${reply.run_id}`, alice.key)).status).toBe(200);
    expect((await get(`/api/v1/sessions/${reply.session_id}`, bob.key)).status).toBe(404);
    expect((await get(`/api/v1/runs/${reply.run_id}`, bob.key)).status).toBe(404);
    const hijack = await post(
      base,
      '/api/v1/chat',
      { message: 'me too', session_id: reply.session_id },
      bearer(bob.key),
    );
    expect(hijack.status).toBe(404);
  });

  it("hides one principal's tasks from another: 404 by name, absent from lists", async () => {
    const carol = await createKey({
      name: 'carol',
      scopes: ['tasks:read', 'tasks:write'],
      principal: 'carol',
    });
    const dave = await createKey({ name: 'dave', scopes: ['tasks:read', 'tasks:write'], principal: 'dave' });
    const runAt = new Date(Date.now() + 3_600_000).toISOString();
    const body = { name: 'carols-reminder', run_at: runAt, function: 'delay_list', params: {} };
    const created = await post(base, '/api/v1/delays', body, bearer(carol.key));
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await get('/api/v1/delays/carols-reminder', carol.key)).status).toBe(200);
    expect((await get('/api/v1/delays/carols-reminder', dave.key)).status).toBe(404);
    expect(await (await get('/api/v1/delays', dave.key)).text()).not.toContain('carols-reminder');
    const removed = await fetch(`${base}/api/v1/delays/carols-reminder`, {
      method: 'DELETE',
      headers: bearer(dave.key),
    });
    expect(removed.status).toBe(404);
    expect((await get('/api/v1/delays/carols-reminder', carol.key)).status).toBe(200);
  });

  it("charges an approved plan's tokens to the key's daily quota, the planning only once", async () => {
    const { id, key } = await createKey({ name: 'planner', scopes: ['chat'] });
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add","tool":"add","params":{"a":4,"b":4}}]}', 'Eight.'],
    });
    const paused = await post(
      base,
      '/api/v1/chat',
      { message: 'Four plus four', agent: 'approver' },
      bearer(key),
    );
    const { run_id: runId, finish_reason: paused_as } = (await paused.json()) as AgentRunReply;
    expect(paused_as).toBe('awaiting_approval');
    const approved = await post(base, `/api/v1/runs/${runId}/approve`, undefined, bearer(key));
    expect(((await approved.json()) as AgentRunReply).finish_reason).toBe('final');
    const run = (await (await get(`/api/v1/runs/${runId}`, key)).json()) as {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    const total = run.usage.prompt_tokens + run.usage.completion_tokens;
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      expect(total).toBeGreaterThan(0);
      // The charge lands just after the answer (the gateway does not hold the reply for it).
      await expectEventually(async () => {
        const charged = await redis.get(`ac:tokens:${id}:${new Date().toISOString().slice(0, 10)}`);
        expect(Number(charged)).toBe(total);
      });
    } finally {
      redis.disconnect();
    }
  });

  it('caps concurrent runs per key with 429 and Retry-After', async () => {
    const { key } = await createKey({ name: 'busy', scopes: ['chat'] });
    stack.llm.setScript({ replies: [{ text: 'slow answer', latencyMs: 1_500 }] });
    const turns = await Promise.all(
      Array.from({ length: 4 }, () => post(base, '/api/v1/chat', { message: 'hello' }, bearer(key))),
    );
    const statuses = turns.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(turns.find((r) => r.status === 429)?.headers.get('retry-after')).toBe('1');
  });

  it('frees the run slot of a turn whose body is refused (the slot is taken with the rate-limit hit)', async () => {
    const { key } = await createKey({ name: 'refused', scopes: ['chat'] });
    for (let i = 0; i < 2; i++)
      expect((await post(base, '/api/v1/chat', { message: 42 }, bearer(key))).status).toBe(400);
    stack.llm.setScript({ replies: [{ text: 'slow answer', latencyMs: 500 }] });
    const turns = await Promise.all(
      Array.from({ length: 2 }, () => post(base, '/api/v1/chat', { message: 'hello' }, bearer(key))),
    );
    expect(turns.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('the rate limit across two gateway processes (Redis-backed counters)', () => {
  let stack: ChatStack;
  let second: ServiceProcess;

  beforeAll(async () => {
    const env = { AUTH_ENABLED: 'true', AC_ADMIN_KEY: `${ADMIN_KEY}_rl`, RATE_LIMIT_PER_MINUTE: '6' };
    stack = await startChatStack({ functions: [], agents: () => [], env });
    second = await startService('gateway', {
      ...env,
      NATS_URL: stack.env.NATS_URL,
      DATABASE_URL: stack.env.DATABASE_URL,
      AC_CONFIG: stack.env.AC_CONFIG,
      PORT: '0',
    });
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.close();
  });

  it('holds one limit for a key whichever gateway it calls', async () => {
    const key = `${ADMIN_KEY}_rl`;
    const bases = [stack.base, gatewayUrl(second)];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await fetch(`${bases[i % 2]}/api/v1/keys`, { headers: bearer(key) })).status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const limited = await fetch(`${bases[1]}/api/v1/keys`, { headers: bearer(key) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
