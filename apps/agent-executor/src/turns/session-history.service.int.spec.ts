import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, Routes } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import { ask } from '../testing/executor-app';
import { startWorld, type World } from '../testing/world';

let world: World;

beforeAll(async () => {
  world = await startWorld({ functions: [], agents: [{ name: 'forgetful', context_window: 256 }] });
});
afterAll(() => world?.close());

type Sent = { messages: { role: string; content: string }[] };
const session = (id: string) => world.bus.request(Routes.agentSessionGet, { session_id: id });

describe('sessions', () => {
  it('loads the earlier turns of a session, so the model can recall them', async () => {
    world.script({ replies: ['Nice to meet you, Ada.', 'Your name is Ada.'] });
    const first = await ask(world.bus, { message: 'My name is Ada.' });
    const second = await ask(world.bus, { message: 'What is my name?', session_id: first.session_id });
    expect(second).toMatchObject({ session_id: first.session_id, reply: 'Your name is Ada.' });
    const sent = world.llm.requests()[1].body as Sent;
    expect(sent.messages.slice(1)).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    const stored = await session(first.session_id);
    expect(stored.messages.map((m) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'My name is Ada.'],
      [2, 'assistant', 'Nice to meet you, Ada.'],
      [3, 'user', 'What is my name?'],
      [4, 'assistant', 'Your name is Ada.'],
    ]);
    expect(stored.title).toBe('My name is Ada.');
  });

  it('keeps every message when two turns on one session finish at once', async () => {
    world.script({ fallback: 'Sure.' });
    const { session_id } = await ask(world.bus, { message: 'Start' });
    await Promise.all([
      ask(world.bus, { message: 'Left', session_id }),
      ask(world.bus, { message: 'Right', session_id }),
    ]);
    const stored = await session(session_id);
    expect(stored.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.messages.map((m) => m.content).sort()).toEqual([
      'Left',
      'Right',
      'Start',
      'Sure.',
      'Sure.',
      'Sure.',
    ]);
  });

  it('refuses a turn on an unknown session with not_found', async () => {
    const error = await ask(world.bus, { message: 'Hello?', session_id: 'ses_missing' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'not_found', message: expect.stringContaining('ses_missing') });
  });

  it('summarises the older turns by one model call when the history outgrows the window', async () => {
    world.script({
      rules: [
        { match: 'Summarise this conversation', reply: 'SUMMARY: the user is Ada and collects teapots.' },
      ],
      fallback: 'Noted.',
    });
    const filler =
      'I collect teapots from every country I visit, and I keep them on long shelves in the hall. '.repeat(4);
    let sessionId: string | undefined;
    let last;
    for (let turn = 1; turn <= 3; turn++) {
      last = await ask(world.bus, {
        message: `Turn ${turn}. ${filler}`,
        session_id: sessionId,
        agent: 'forgetful',
      });
      sessionId = last.session_id;
    }
    const chats = world.llm.requests().map((r) => r.body as Sent);
    const summaryCalls = chats.filter((c) =>
      c.messages.at(-1)?.content.startsWith('Summarise this conversation'),
    );
    expect(summaryCalls).toHaveLength(1);
    expect(summaryCalls[0].messages.at(-1)?.content).toContain('Turn 1.');
    const lastChat = chats.at(-1) as Sent;
    expect(lastChat.messages[1]).toEqual({
      role: 'system',
      content: expect.stringContaining('SUMMARY: the user is Ada'),
    });
    expect(lastChat.messages.some((m) => m.content.startsWith('Turn 1.'))).toBe(false);
    expect(lastChat.messages.at(-1)?.content).toMatch(/^Turn 3\./);
    expect((await session(sessionId as string)).summary).toBe(
      'SUMMARY: the user is Ada and collects teapots.',
    );
    const run = await world.bus.request(Routes.agentRunGet, { run_id: last!.run_id });
    expect(run.trace.map((s) => s.kind)).toContain('history_summary');
  });

  it('folds a history of more than 200 short messages at once, then leaves it alone for many turns', async () => {
    world.script({
      rules: [{ match: 'Summarise this conversation', reply: 'SUMMARY: a long chat about numbers.' }],
      fallback: 'Ok.',
    });
    const { session_id: sessionId } = await ask(world.bus, { message: 'Number 1.' });
    // 99 more turns' messages, as 99 turns would have stored them
    await world.executor.app.get<Db>(DB).message.createMany({
      data: Array.from({ length: 198 }, (_, i) => ({
        id: `msg_many_${i}`,
        session_id: sessionId,
        seq: 3 + i,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: i % 2 === 0 ? `Number ${2 + i / 2}.` : 'Ok.',
        tokens: 4,
      })),
    });
    for (let turn = 101; turn <= 105; turn++)
      await ask(world.bus, { message: `Number ${turn}.`, session_id: sessionId });
    const chats = world.llm.requests().map((r) => r.body as Sent);
    const folds = chats.filter((c) => c.messages.at(-1)?.content.startsWith('Summarise this conversation'));
    // the 101st turn finds 200 stored messages and a 201st would be too many: one fold, of the oldest
    expect(folds).toHaveLength(1);
    expect(folds[0].messages.at(-1)?.content).toContain('Number 1.');
    const turns = chats.filter((c) => !c.messages.at(-1)?.content.startsWith('Summarise'));
    const afterFold = turns.slice(-3);
    for (const [earlier, later] of [
      [afterFold[0], afterFold[1]],
      [afterFold[1], afterFold[2]],
    ])
      // each turn's request starts with the whole previous one, and only appends
      expect(later.messages.slice(0, earlier.messages.length)).toEqual(earlier.messages);
    expect(afterFold[2].messages[1].content).toContain('SUMMARY: a long chat about numbers.');
    expect(afterFold[2].messages.length).toBeLessThanOrEqual(2 + 100 + 10);
  });

  it("hides a principal's sessions and runs from another principal", async () => {
    world.script({ fallback: 'Hi.' });
    const mine = await ask(world.bus, { message: 'Hello', principal: 'alice' });
    const as = (principal: string) => ({ session_id: mine.session_id, principal });
    const get = (body: { session_id: string }) => world.bus.request(Routes.agentSessionGet, body);
    expect(await get(as('alice'))).toMatchObject({ id: mine.session_id });
    await expect(get(as('bob'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      ask(world.bus, { message: 'Sneaky', session_id: mine.session_id, principal: 'bob' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(world.bus.request(Routes.agentSessionDelete, as('bob'))).rejects.toMatchObject({
      code: 'not_found',
    });
    const run = (principal: string) =>
      world.bus.request(Routes.agentRunGet, { run_id: mine.run_id, principal });
    await expect(run('bob')).rejects.toMatchObject({ code: 'not_found' });
    expect(await run('alice')).toMatchObject({ id: mine.run_id });
  });

  it('deletes a session with its messages', async () => {
    world.script({ replies: ['Hi.'] });
    const { session_id } = await ask(world.bus, { message: 'Hello' });
    await world.bus.request(Routes.agentSessionDelete, { session_id });
    await expect(session(session_id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(world.bus.request(Routes.agentSessionDelete, { session_id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
