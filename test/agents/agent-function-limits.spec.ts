// An agent's function invoked by an API client (`POST /api/v1/functions/agent_<name>/invoke`) is a
// run of that agent for the calling key: it takes one of the key's run slots while it runs, and its
// tokens count against the key's daily quota, as a chat turn's do.
// Gateway and executor processes, real NATS and Redis, SQLite, the scripted model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FnExecReplyView } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { add, type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_agent_function_limits_admin_4e7b1c9d';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("an agent's function within the calling key's limits", () => {
  let stack: ChatStack;

  const createKey = async (name: string): Promise<{ id: string; key: string }> => {
    const res = await post(
      stack.base,
      '/api/v1/keys',
      { name, scopes: ['functions:invoke', 'chat'] },
      bearer(ADMIN_KEY),
    );
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; key: string };
  };
  const invoke = (key: string, message: string) =>
    post(stack.base, '/api/v1/functions/agent_helper/invoke', { params: { message } }, bearer(key));

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [add],
      agents: () => [
        { name: 'helper', description: 'Answers questions.', allowed_tools: [], expose_as_function: true },
      ],
      env: {
        AUTH_ENABLED: 'true',
        AC_ADMIN_KEY: ADMIN_KEY,
        // The first call is admitted on an untouched day; its tokens use the quota up.
        DAILY_TOKEN_QUOTA_PER_KEY: '1',
        MAX_CONCURRENT_RUNS_PER_KEY: '1',
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('charges the run’s tokens to the key, so its next call is refused with 429', async () => {
    const { id, key } = await createKey('invoker');
    stack.llm.setScript({ fallback: 'helper answer' });

    const first = await invoke(key, 'first question');
    expect(first.status).toBe(200);
    const reply = (await first.json()) as FnExecReplyView;
    expect(reply).toMatchObject({ status: 'success', result: { data: { reply: 'helper answer' } } });
    const usage = reply.result!.usage!;
    const total = usage.prompt_tokens + usage.completion_tokens;
    expect(total).toBeGreaterThan(1);
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      await expectEventually(async () => {
        const charged = await redis.get(`ac:tokens:${id}:${new Date().toISOString().slice(0, 10)}`);
        expect(Number(charged)).toBe(total);
      });
    } finally {
      redis.disconnect();
    }

    const second = await invoke(key, 'second question');
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({
      error: { code: 'rate_limited', message: expect.stringMatching(/daily token quota/) },
    });
    // One counter for the key: its chat turns are refused too.
    const chat = await post(stack.base, '/api/v1/chat', { agent: 'helper', message: 'hi' }, bearer(key));
    expect(chat.status).toBe(429);
    // A function that is no agent spends no tokens: it stays outside the run limits.
    const sum = await post(
      stack.base,
      '/api/v1/functions/add/invoke',
      { params: { a: 2, b: 3 } },
      bearer(key),
    );
    expect(sum.status).toBe(200);
  });

  it('holds one of the key’s run slots while the agent runs', async () => {
    const { key } = await createKey('busy');
    stack.llm.setScript({ replies: [{ text: 'slow answer', latencyMs: 1_500 }] });

    const calls = await Promise.all([invoke(key, 'one'), invoke(key, 'two')]);

    expect(calls.map((r) => r.status).sort()).toEqual([200, 429]);
    const refused = calls.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      error: { code: 'rate_limited', message: expect.stringMatching(/concurrent runs/) },
    });
  });
});
