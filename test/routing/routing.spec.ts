// Messages into running runs, and where a session's messages go: gateway and executor processes,
// real NATS, SQLite and PostgreSQL, the scripted model. A run holds in a function call the test
// releases, so a message posted meanwhile lands before the run's next model step, every time.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, CreatedApiKey, RunView, SessionView } from '@app/contracts';
import { expectEventually, MIGRATED_DATABASES } from '@app/testing';
import { type ChatStack, post, readEvents, type SseEvent, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_routing_admin_key_7c1e4b92a05d';
const HOLD_CALL = '<call name="hold"></call>';

/** The function a run waits in until the test lets it go. */
function gate() {
  let entered!: () => void;
  let release!: () => void;
  const state = {
    entered: new Promise<void>((resolve) => (entered = resolve)),
    released: new Promise<void>((resolve) => (release = resolve)),
  };
  return { ...state, enter: () => entered(), release: () => release() };
}

describe.each(MIGRATED_DATABASES)('routing messages into runs on $name', (database) => {
  let stack: ChatStack;
  let drop: () => Promise<void>;
  let held = gate();
  let alice: string;
  let bob: string;
  const keyIds = new Map<string, string>();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  /** The tokens charged today to a key's daily quota. */
  const tokensCharged = async (key: string) =>
    Number(await redis.get(`ac:tokens:${keyIds.get(key)}:${new Date().toISOString().slice(0, 10)}`));

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    stack = await startChatStack({
      functions: [
        {
          name: 'hold',
          run: async () => {
            held.enter();
            await held.released;
            return { data: { held: true } };
          },
        },
      ],
      agents: () => [{ name: 'sidekick', allowed_tools: ['hold'], routing: 'new' }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, DATABASE_URL: created.url },
    });
    [alice, bob] = await Promise.all([keyFor('alice'), keyFor('bob')]);
  });
  afterAll(async () => {
    held.release();
    redis.disconnect();
    await stack?.close();
    await drop?.();
  });

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  async function keyFor(principal: string): Promise<string> {
    const body = { name: principal, scopes: ['chat'], principal };
    const res = await post(stack.base, '/api/v1/keys', body, bearer(ADMIN_KEY));
    const created = (await res.json()) as CreatedApiKey;
    keyIds.set(created.key, created.id);
    return created.key;
  }
  const chat = async (key: string, body: Record<string, unknown>) => {
    const res = await post(stack.base, '/api/v1/chat', body, bearer(key));
    return { status: res.status, body: (await res.json()) as AgentRunReply & { status?: string } };
  };
  const get = async <T>(path: string, key = alice) =>
    (await (await fetch(`${stack.base}/api/v1${path}`, { headers: bearer(key) })).json()) as T;
  const script = (rules: { match: string; reply: string }[]) => {
    stack.llm.setScript({ rules, replies: [HOLD_CALL] });
    stack.llm.clearRequests();
  };
  /** Latest user message of each model request the scripted server received. */
  const lastUserMessages = () =>
    stack.llm.requests().map((r) => {
      const { messages } = r.body as { messages: { role: string; content: string }[] };
      return messages.filter((m) => m.role === 'user').at(-1)?.content;
    });

  /** Starts a streamed run of alice's that waits in `hold`; resolves once it waits there. */
  async function heldRun(message: string, agent?: string) {
    held = gate();
    const body = { message, stream: true, ...(agent ? { agent } : {}) };
    const res = await post(stack.base, '/api/v1/chat', body, bearer(alice));
    const events = readEvents(res);
    await held.entered;
    const runs = await get<{ items: { id: string; session_id: string; status: string }[] }>('/runs');
    const run = runs.items.find((r) => r.status === 'running')!;
    return { runId: run.id, sessionId: run.session_id, events };
  }
  const endOf = (events: SseEvent[]) => events.at(-1)?.data as AgentRunReply;

  it('adds a message to a running run: its next model call reads it, the trace and the stream show it', async () => {
    script([{ match: 'also say banana', reply: 'Banana.' }]);
    const run = await heldRun('Hold on a moment.');
    const session = await get<SessionView>(`/sessions/${run.sessionId}`);
    expect(session.active_runs).toEqual([run.runId]);

    const joined = await chat(alice, { message: 'also say banana', run_id: run.runId });
    expect(joined).toEqual({
      status: 202,
      body: { run_id: run.runId, session_id: run.sessionId, status: 'joined' },
    });
    held.release();
    const events = await run.events;
    expect(endOf(events)).toMatchObject({ run_id: run.runId, reply: 'Banana.' });
    expect(events.find((e) => e.event === 'user_message')?.data).toEqual({
      step: 2,
      text: 'also say banana',
    });
    expect(lastUserMessages()).toEqual(['Hold on a moment.', 'also say banana']);
    const view = await get<RunView>(`/runs/${run.runId}`);
    expect(view.trace).toContainEqual(
      expect.objectContaining({ kind: 'user_message', step: 2, message: 'also say banana' }),
    );
    await expectEventually(async () =>
      expect((await get<SessionView>(`/sessions/${run.sessionId}`)).active_runs).toEqual([]),
    );
    // the session keeps the added message in its place, for the turns that follow
    const { messages } = await get<SessionView>(`/sessions/${run.sessionId}`);
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hold on a moment.'],
      ['user', 'also say banana'],
      ['assistant', 'Banana.'],
    ]);
  });

  it("starts a new run in an ended run's session, told what that run did", async () => {
    stack.llm.setScript({ rules: [{ match: 'What next?', reply: 'Next: tea.' }], fallback: 'Boiled water.' });
    const first = await chat(alice, { message: 'Boil water.' });
    stack.llm.clearRequests();
    const next = await chat(alice, { message: 'What next?', run_id: first.body.run_id });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ session_id: first.body.session_id, reply: 'Next: tea.' });
    expect(next.body.run_id).not.toBe(first.body.run_id);
    const { messages } = stack.llm.requests()[0].body as { messages: { role: string; content: string }[] };
    // what the earlier run did is this turn's context: a system message after the agent's own prompt
    expect(messages[1]).toMatchObject({ role: 'system', content: expect.stringContaining('Boil water.') });
    expect(messages[1].content).toContain('Boiled water.');
  });

  it.each([
    ['join', 'joins'],
    ['new', 'starts a run beside'],
  ] as const)(
    'routing %s %s the running run of the session, and says so in the trace',
    async (routing, _what) => {
      script([{ match: 'and a biscuit', reply: 'Tea and a biscuit.' }]);
      const run = await heldRun('Hold on for tea.');
      const routed = await chat(alice, { message: 'and a biscuit', session_id: run.sessionId, routing });
      held.release();
      const ended = endOf(await run.events);
      const into = routing === 'join' ? run.runId : routed.body.run_id;
      if (routing === 'join') {
        expect(routed).toMatchObject({ status: 202, body: { run_id: run.runId, status: 'joined' } });
        expect(ended.reply).toBe('Tea and a biscuit.');
      } else {
        expect(routed).toMatchObject({
          status: 200,
          body: { session_id: run.sessionId, reply: 'Tea and a biscuit.' },
        });
        expect(into).not.toBe(run.runId);
        expect(ended.reply).not.toBe('Tea and a biscuit.');
      }
      const view = await get<RunView>(`/runs/${into}`);
      expect(view.trace).toContainEqual(
        expect.objectContaining({
          kind: 'routing',
          message: 'and a biscuit',
          routing: expect.objectContaining({ decision: routing, routing }),
        }),
      );
    },
  );

  it.each([
    [true, 'make it green tea'],
    [false, 'what is the weather in Oslo'],
  ])('routing auto asks the model (belongs: %s)', async (belongs, message) => {
    script([
      { match: '/The new message:\\s+make it green tea/', reply: '{"join":true,"reason":"about the tea"}' },
      {
        match: '/The new message:\\s+what is the weather/',
        reply: '{"join":false,"reason":"another matter"}',
      },
      { match: 'make it green tea', reply: 'Green tea.' },
      { match: 'weather', reply: 'Sunny.' },
    ]);
    const run = await heldRun('Hold on, tea please.');
    const before = await tokensCharged(alice);
    const routed = await chat(alice, { message, session_id: run.sessionId });
    // asking the model is charged to the caller's quota like a run (the held run is not charged yet)
    if (belongs)
      await expectEventually(async () => expect(await tokensCharged(alice)).toBeGreaterThan(before));
    held.release();
    const ended = endOf(await run.events);
    const asked = stack.llm.requests().filter((r) => JSON.stringify(r.body).includes('The new message:'));
    expect(asked).toHaveLength(1);
    const into = belongs ? run.runId : routed.body.run_id;
    expect(routed.status).toBe(belongs ? 202 : 200);
    if (belongs) expect(ended.reply).toBe('Green tea.');
    else expect(routed.body.reply).toBe('Sunny.');
    const view = await get<RunView>(`/runs/${into}`);
    const reason = belongs ? 'about the tea' : 'another matter';
    expect(view.trace).toContainEqual(
      expect.objectContaining({
        kind: 'routing',
        routing: { decision: belongs ? 'join' : 'new', routing: 'auto', reason },
      }),
    );
  });

  it("routes by the agent's own routing when the message names none", async () => {
    script([{ match: 'and a biscuit', reply: 'Tea and a biscuit.' }]);
    const run = await heldRun('Hold on for tea.', 'sidekick');
    const routed = await chat(alice, { message: 'and a biscuit', session_id: run.sessionId });
    held.release();
    await run.events;
    expect(routed).toMatchObject({
      status: 200,
      body: { session_id: run.sessionId, reply: 'Tea and a biscuit.' },
    });
    expect(stack.llm.requests().filter((r) => JSON.stringify(r.body).includes('The new message:'))).toEqual(
      [],
    );
    const view = await get<RunView>(`/runs/${routed.body.run_id}`);
    expect(view.trace).toContainEqual(
      expect.objectContaining({
        kind: 'routing',
        routing: expect.objectContaining({ decision: 'new', routing: 'new' }),
      }),
    );
  });

  it("answers another principal's run id with 404, and leaves the run alone", async () => {
    script([]);
    const run = await heldRun('Hold on, mine.');
    const theirs = await chat(bob, { message: 'let me in', run_id: run.runId });
    expect(theirs.status).toBe(404);
    const bySession = await chat(bob, { message: 'let me in', session_id: run.sessionId, routing: 'join' });
    expect(bySession.status).toBe(404);
    held.release();
    await run.events;
    await expectEventually(async () =>
      expect((await get<RunView>(`/runs/${run.runId}`)).status).toBe('completed'),
    );
    expect(lastUserMessages()).not.toContain('let me in');
  });
});
