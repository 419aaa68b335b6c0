import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, Page, RunSummary, SessionSummary } from '@app/contracts';
import { type ChatStack, post, startChatStack } from './chat-stack';

const ADMIN_KEY = 'ac_test_admin_key_listing_0123456789ab';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('listing sessions and runs (gateway and executor processes, real NATS, SQLite)', () => {
  let stack: ChatStack;
  let alice: string;
  let bob: string;

  const get = async <T>(path: string, key: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${stack.base}${path}`, { headers: bearer(key) });
    return { status: res.status, body: (await res.json()) as T };
  };
  const chat = async (key: string, message: string, session_id?: string): Promise<AgentRunReply> => {
    const res = await post(stack.base, '/api/v1/chat', { message, session_id, agent: 'helper' }, bearer(key));
    expect(res.status).toBe(200);
    return (await res.json()) as AgentRunReply;
  };
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

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [{ name: 'helper' }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
    });
    alice = await keyFor('alice');
    bob = await keyFor('bob');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("lists only the caller's own sessions, most recently active first, searchable by text", async () => {
    stack.llm.setScript({ replies: ['Noted.', 'Noted.', 'Noted.', 'Noted.'] });
    const first = await chat(alice, 'The Deploy of PAYMENTS is done');
    const second = await chat(alice, 'lunch at noon');
    await chat(bob, 'payments are mine too');
    await chat(alice, 'one more thing', first.session_id);

    const mine = await get<Page<SessionSummary>>('/api/v1/sessions', alice);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((s) => s.id)).toEqual([first.session_id, second.session_id]);
    expect(mine.body.next_cursor).toBeNull();

    const found = await get<Page<SessionSummary>>('/api/v1/sessions?q=payments', alice);
    expect(found.body.items.map((s) => s.id)).toEqual([first.session_id]);
    const theirs = await get<Page<SessionSummary>>('/api/v1/sessions?q=payments', bob);
    expect(theirs.body.items).toHaveLength(1);
    expect(theirs.body.items[0].id).not.toBe(first.session_id);
  });

  it('pages runs with a cursor and filters them by session, status and agent', async () => {
    stack.llm.setScript({ replies: ['a', 'b', 'c'] });
    const one = await chat(alice, 'paging one');
    await chat(alice, 'paging two', one.session_id);
    await chat(alice, 'paging three', one.session_id);

    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { status: number; body: Page<RunSummary> } = await get<Page<RunSummary>>(
        `/api/v1/runs?session_id=${one.session_id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        alice,
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((run) => run.input));
      cursor = page.body.next_cursor;
    }
    expect(seen).toEqual(['paging three', 'paging two', 'paging one']);

    const completed = await get<Page<RunSummary>>(
      `/api/v1/runs?status=completed&agent=helper&limit=100`,
      alice,
    );
    expect(completed.body.items.length).toBeGreaterThanOrEqual(3);
    expect(completed.body.items.every((run) => run.status === 'completed' && run.agent === 'helper')).toBe(
      true,
    );
    expect((await get<Page<RunSummary>>(`/api/v1/runs?agent=nobody`, alice)).body.items).toEqual([]);
    expect(
      (await get<Page<RunSummary>>(`/api/v1/runs?session_id=${one.session_id}`, bob)).body.items,
    ).toEqual([]);
  });

  it('refuses a bad limit, status or cursor with 400 naming the field', async () => {
    const limit = await get<{ error: { details: { field: string }[] } }>('/api/v1/runs?limit=0', alice);
    expect(limit.status).toBe(400);
    expect(limit.body.error.details.map((d) => d.field)).toEqual(['limit']);
    const status = await get<{ error: { details: { field: string }[] } }>('/api/v1/runs?status=done', alice);
    expect(status.status).toBe(400);
    expect(status.body.error.details.map((d) => d.field)).toEqual(['status']);
    const cursor = await get<{ error: { message: string } }>(
      '/api/v1/sessions?cursor=bm90LWEtY3Vyc29y',
      alice,
    );
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.message).toMatch(/cursor/);
  });
});
