import { describe, expect, it } from 'vitest';
import { LimitExceeded } from './errors';
import { AgentSession } from './session';
import { InMemorySessionStore } from './session/in-memory-session.store';
import { finalAnswer, harness, nativeCall } from './testing/fixtures.fixture';

describe('AgentSession', () => {
  it('keeps the history, the turn index and the usage and cost across turns', async () => {
    const { agent, model } = harness([finalAnswer('Hello Ann.'), finalAnswer('You are Ann.')]);
    const session = new AgentSession(agent, {
      settings: { pricing: { input_per_mtok: 500_000, output_per_mtok: 1_000_000 } },
    });
    await session.submitTurn('I am Ann.');
    const second = await session.submitTurn('Who am I?');
    expect(second.reply).toBe('You are Ann.');
    expect(second.session_id).toBe(session.id);
    expect(model.requests[1].messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'I am Ann.'],
      ['assistant', 'Hello Ann.'],
      ['user', 'Who am I?'],
    ]);
    expect(session.turnIndex).toBe(2);
    expect(session.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10 });
    expect(session.cost).toBe(20);
  });

  it('refuses a turn past max turns', async () => {
    const { agent } = harness([finalAnswer('one')]);
    const session = new AgentSession(agent, { settings: { maxTurns: 1 } });
    await session.submitTurn('1');
    await expect(session.submitTurn('2')).rejects.toThrow(LimitExceeded);
  });

  it('offers no functions once maxToolTurns turns have called some', async () => {
    const { agent, model } = harness(
      [
        nativeCall('c1', 'add', { a: 1, b: 2 }),
        'Three.',
        nativeCall('c2', 'add', { a: 2, b: 2 }),
        'Four.',
        'No.',
      ],
      { protocol: 'native' },
    );
    const session = new AgentSession(agent, { settings: { maxToolTurns: 2 } });
    await session.submitTurn('1 + 2?');
    await session.submitTurn('2 + 2?');
    const third = await session.submitTurn('3 + 3?');
    const offered = model.requests.map((request) => request.tools?.map((tool) => tool.name).sort());
    expect(offered).toEqual([
      ['add', 'multiply'],
      ['add', 'multiply'],
      ['add', 'multiply'],
      ['add', 'multiply'],
      undefined,
    ]);
    expect(third).toMatchObject({ reply: 'No.', function_calls: [] });
  });

  it('expires after ttlMs without a turn, by the runtime’s clock', async () => {
    let now = 1_000;
    const { agent } = harness([finalAnswer('one'), finalAnswer('two')], {}, { clock: { now: () => now } });
    const session = new AgentSession(agent, { settings: { ttlMs: 60_000 } });
    await session.submitTurn('1');
    now += 60_000;
    await session.submitTurn('2');
    now += 60_001;
    const expired = session.submitTurn('3');
    await expect(expired).rejects.toThrow(LimitExceeded);
    await expect(expired).rejects.toMatchObject({ code: 'session_expired' });
    expect(session.turnIndex).toBe(2);
  });

  it('folds older turns into a summary when the history outgrows half the context', async () => {
    const store = new InMemorySessionStore();
    const long = 'x'.repeat(400);
    await store.append('ses_1', [
      { role: 'user', content: long, tokens: 100 },
      { role: 'assistant', content: long, tokens: 100 },
      { role: 'user', content: 'recent', tokens: 5 },
      { role: 'assistant', content: 'ok', tokens: 5 },
    ]);
    const { agent, model } = harness(['They talked about x.', finalAnswer('Sure.')], { context_window: 200 });
    const session = new AgentSession(agent, { sessionId: 'ses_1', store });
    const result = await session.submitTurn('Continue.');
    expect(result.trace[0]).toMatchObject({ kind: 'history_summary' });
    expect(model.requests[1].messages[1]).toEqual({
      role: 'system',
      content: 'Summary of the earlier conversation:\nThey talked about x.',
    });
    expect((await store.load('ses_1')).summary).toBe('They talked about x.');
  });
});
