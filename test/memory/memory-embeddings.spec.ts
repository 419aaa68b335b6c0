// Memory search by meaning through the real stack: the gateway and an executor as processes, real
// NATS, SQLite with sqlite-vec, the scripted model's embeddings. A segment that shares no word with
// the question is found, only by its owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemorySearchReply } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_test_admin_key_memory_vec_0123456789ab';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const FACT = 'The mechanic was repairing my gearbox';

describe('memory search by meaning (gateway and executor processes, SQLite with sqlite-vec)', () => {
  let stack: ChatStack;
  const keys: Record<string, string> = {};

  const search = async (principal: string, q: string): Promise<MemorySearchReply> => {
    const res = await fetch(`${stack.base}/api/v1/memory/search?q=${encodeURIComponent(q)}`, {
      headers: bearer(keys[principal]),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as MemorySearchReply;
  };

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [{ name: 'rememberer', memory: { enabled: true, scope: 'principal' } }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
      // The scripted model answers /embeddings too; its URL reaches the services as LLM_BASE_URL.
      config: { memory: { embeddings: { base_url: '${LLM_BASE_URL}', dimensions: 64 } } },
    });
    stack.llm.setScript({ fallback: 'Noted.' });
    for (const principal of ['alice', 'bob']) {
      const res = await post(
        stack.base,
        '/api/v1/keys',
        { name: principal, scopes: ['chat'], principal },
        bearer(ADMIN_KEY),
      );
      keys[principal] = ((await res.json()) as { key: string }).key;
    }
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('finds a memory that shares no word with the question, for its owner only', async () => {
    const res = await post(
      stack.base,
      '/api/v1/chat',
      { message: FACT, agent: 'rememberer' },
      bearer(keys.alice),
    );
    expect(res.status).toBe(200);
    // 'repairs' is none of the memory's words: only its vector can find it.
    await expectEventually(async () =>
      expect((await search('alice', 'repairs')).chunks[0]?.content).toBe(FACT),
    );
    expect(stack.llm.requests().some((r) => r.path.endsWith('/embeddings'))).toBe(true);
    expect((await search('bob', 'repairs')).chunks).toEqual([]);
  });
});
