// The chat path on PostgreSQL, the scale-out database: the same turns as on SQLite, end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView, SessionView } from '@app/contracts';
import { MIGRATED_DATABASES } from '@app/testing';
import { add, type ChatStack, post, startChatStack } from './chat-stack';

const postgres = MIGRATED_DATABASES.find((d) => d.name === 'PostgreSQL')!;

describe('chat on PostgreSQL (gateway and executor processes, real NATS and PostgreSQL)', () => {
  let stack: ChatStack;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await postgres.create();
    drop = database.drop;
    stack = await startChatStack({ functions: [add], agents: () => [], env: { DATABASE_URL: database.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await drop?.();
  });

  const chat = async (body: Record<string, unknown>) =>
    (await (await post(stack.base, '/api/v1/chat', body)).json()) as AgentRunReply;

  it('runs a tool-calling turn, keeps the session for the next one, and records both runs', async () => {
    stack.llm.setScript({
      rules: [
        { match: 'What did I ask?', reply: 'You asked about 2 + 3.' },
        { match: 'sum', reply: 'Five.' },
      ],
      fallback: '<call name="add"><p>a: 2</p><p>b: 3</p></call>',
    });
    const first = await chat({ message: 'Two plus three?' });
    expect(first).toMatchObject({
      reply: 'Five.',
      finish_reason: 'final',
      function_calls: [{ name: 'add' }],
    });
    const second = await chat({ message: 'What did I ask?', session_id: first.session_id });
    expect(second.reply).toBe('You asked about 2 + 3.');

    const session = (await (
      await fetch(`${stack.base}/api/v1/sessions/${first.session_id}`)
    ).json()) as SessionView;
    expect(session.messages.map((m) => [m.seq, m.content])).toEqual([
      [1, 'Two plus three?'],
      [2, 'Five.'],
      [3, 'What did I ask?'],
      [4, 'You asked about 2 + 3.'],
    ]);
    const run = (await (await fetch(`${stack.base}/api/v1/runs/${first.run_id}`)).json()) as RunView;
    expect(run).toMatchObject({ status: 'completed', used_tools: { add: { count: 1 } } });
    expect(run.trace.map((s) => s.kind)).toEqual(['action', 'final']);
    expect(run.usage.prompt_tokens).toBeGreaterThan(0);
    // The second turn's model request carried the first turn, read back from PostgreSQL.
    const lastRequest = JSON.stringify(stack.llm.requests().at(-1));
    expect(lastRequest).toContain('Two plus three?');
    expect(lastRequest).toContain('Five.');
  });

  it('lists sessions and runs from PostgreSQL, the text search ignoring case', async () => {
    const list = async <T>(path: string): Promise<T[]> =>
      ((await (await fetch(`${stack.base}${path}`)).json()) as { items: T[] }).items;
    const found = await list<{ id: string }>('/api/v1/sessions?q=TWO%20PLUS');
    expect(found.length).toBeGreaterThan(0);
    const runs = await list<{ session_id: string; status: string }>(`/api/v1/runs?session_id=${found[0].id}`);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.session_id === found[0].id && r.status === 'completed')).toBe(true);
  });
});
