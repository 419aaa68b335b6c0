// Long-term memory through the real stack: the gateway and an executor as processes, real NATS,
// SQLite, the scripted model. A fact told in one session is recalled by `memory_retrieve` in a
// new session of the same principal, never by another principal's; forgetting removes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import type { AgentRunReply, MemorySearchReply, RunView } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_test_admin_key_memory_0123456789abcd';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const FACT = 'Remember: my favourite colour is teal';
const ASK = 'Which colour do I like best';

describe('long-term memory (gateway and executor processes, real NATS, SQLite, the scripted model)', () => {
  let stack: ChatStack;
  let alice: string;
  let bob: string;

  const keyFor = async (principal: string): Promise<string> => {
    const res = await post(
      stack.base,
      '/api/v1/keys',
      { name: principal, scopes: ['chat'], principal },
      bearer(ADMIN_KEY),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { key: string }).key;
  };
  const chat = async (key: string, message: string, session_id?: string): Promise<AgentRunReply> => {
    const res = await post(
      stack.base,
      '/api/v1/chat',
      { message, session_id, agent: 'rememberer' },
      bearer(key),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as AgentRunReply;
  };
  const call = (key: string, method: string, path: string) =>
    fetch(`${stack.base}${path}`, { method, headers: bearer(key) });
  const search = async (key: string, q: string): Promise<MemorySearchReply> => {
    const res = await call(key, 'GET', `/api/v1/memory/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (await res.json()) as MemorySearchReply;
  };
  /** A new session asks; the model calls memory_retrieve; what the call returned is in the run's trace. */
  const recall = async (key: string): Promise<string> => {
    const reply = await chat(key, ASK);
    const run = (await (await call(key, 'GET', `/api/v1/runs/${reply.run_id}`)).json()) as RunView;
    const step = run.trace.find((s) => s.action?.tool === 'memory_retrieve');
    expect(step?.error).toBeUndefined();
    return step?.observation ?? '';
  };

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [{ name: 'rememberer', memory: { enabled: true, scope: 'principal' } }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
    });
    stack.llm.setScript({
      rules: [
        { match: `/^${FACT}$/`, reply: 'Noted.' },
        { match: `/^${ASK}$/`, reply: '<call name="memory_retrieve"><p>query: favourite colour</p></call>' },
      ],
      fallback: 'Done.',
    });
    alice = await keyFor('alice');
    bob = await keyFor('bob');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('recalls a fact from another session of the same principal, and only there', async () => {
    const told = await chat(alice, FACT);
    expect(told.reply).toBe('Noted.');
    await expectEventually(async () => expect((await search(alice, 'teal')).chunks).not.toHaveLength(0));

    stack.llm.clearRequests();
    expect(await recall(alice)).toContain('teal');
    const prompt = JSON.stringify(stack.llm.requests()[0]);
    expect(prompt).toContain('memory_retrieve');
    expect(prompt).toContain('memory_expand');

    expect(await recall(bob)).not.toContain('teal');
  });

  it('searches only the caller’s memories over REST, and refuses a query without words', async () => {
    const { chunks } = await search(alice, 'favourite colour teal');
    expect(chunks[0]).toMatchObject({
      content: FACT,
      anchor: { segment_type: 'user_message', iteration_index: 0, segment_index: 0 },
      relevance: expect.any(Number),
    });
    expect((await search(bob, 'teal')).chunks).toEqual([]);
    expect((await call(alice, 'GET', '/api/v1/memory/search?q=%22*%22')).status).toBe(400);
    expect((await call(alice, 'GET', '/api/v1/memory/search')).status).toBe(400);
    expect((await call(alice, 'GET', '/api/v1/memory/search?q=teal&limit=0')).status).toBe(400);
  });

  it('forgets a session’s memories for its owner only, then everything', async () => {
    const { chunks } = await search(alice, 'teal');
    const sessionId = chunks[0].session_id;
    const runId = chunks[0].anchor.run_id;
    expect((await call(bob, 'DELETE', `/api/v1/memory?session_id=${sessionId}`)).status).toBe(404);
    expect((await call(bob, 'DELETE', `/api/v1/memory?run_id=${runId}`)).status).toBe(404);
    expect((await call(bob, 'DELETE', '/api/v1/memory?session_id=ses_nothing')).status).toBe(404);
    expect((await search(alice, 'teal')).chunks).not.toEqual([]);

    const forgot = await call(alice, 'DELETE', `/api/v1/memory?session_id=${sessionId}`);
    expect(forgot.status).toBe(200);
    expect(((await forgot.json()) as { deleted: number }).deleted).toBeGreaterThan(0);
    expect((await search(alice, 'teal')).chunks).toEqual([]);
    expect(await recall(alice)).not.toContain('teal');

    // the typed client's view of the same routes
    const client = new AgentChassisClient({ baseUrl: stack.base, apiKey: alice });
    expect((await client.memory.search({ q: 'colour', limit: 50 })).chunks).not.toEqual([]);
    expect((await client.memory.forget()).deleted).toBeGreaterThan(0);
    expect((await client.memory.search({ q: 'favourite colour' })).chunks).toEqual([]);
  });
});
