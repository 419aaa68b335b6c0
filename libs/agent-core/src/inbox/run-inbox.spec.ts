import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent-definition';
import type { RunEvent } from '../events';
import { InMemoryRunJournal } from '../journal/in-memory-run-journal';
import type { JournalEntry } from '../journal/journal-entry';
import { JournalReplay, resumeFromJournal } from '../journal/journal-replay';
import type { ChatMessage } from '../model/model-client';
import { PromptSet } from '../prompts/prompt-set';
import { RunState } from '../run-state';
import { runStrategy } from '../run-turn';
import { JSON_PLAN_PARSER } from '../strategies/plan-parser';
import { action, arithmetic, finalAnswer } from '../testing/fixtures.fixture';
import { type ScriptedReply, ScriptedModelClient } from '../testing/scripted-model';
import { InMemoryRunInbox } from './run-inbox';
import { settleInbox } from './settle-inbox';

const react = defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'] });
const ADDED = 'also multiply it by 4';

/** A run whose first function call posts `ADDED` to its inbox (the caller writes while it works). */
async function runOnce(replies: ScriptedReply[], journal?: JournalEntry[]) {
  const model = new ScriptedModelClient(replies);
  const store = new InMemoryRunJournal();
  const inbox = new InMemoryRunInbox();
  const functions = arithmetic();
  const call = functions.call.bind(functions);
  let posted = Boolean(journal);
  functions.call = async (request) => {
    if (!posted) inbox.post(ADDED);
    posted = true;
    return call(request);
  };
  const events: RunEvent[] = [];
  const run = new RunState({ runId: 'run_1', sessionId: '' }, react, {
    timeoutMs: 10_000,
    events: { emit: (event) => events.push(event) },
  });
  const live = { run, model, functions, prompts: new PromptSet(react), journal: store, inbox };
  const ctx = journal ? resumeFromJournal(live, new JournalReplay(journal)) : live;
  run.transition('running');
  const outcome = await runStrategy(ctx, [{ role: 'user', content: 'add 2 and 3' }], JSON_PLAN_PARSER);
  run.close();
  return { outcome, run, model, events, entries: store.load('run_1') };
}

const lastUserTurn = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'user').at(-1);

describe('a message added to a running run', () => {
  const replies = [action('add', { a: 2, b: 3 }), action('multiply', { a: 5, b: 4 }), finalAnswer('20')];

  it('reaches the next model step as a user turn, traced, told and journaled', async () => {
    const { outcome, run, model, events, entries } = await runOnce(replies);
    expect(outcome.finishReason).toBe('final');
    expect(lastUserTurn(model.requests[0].messages)?.content).toBe('add 2 and 3');
    expect(lastUserTurn(model.requests[1].messages)?.content).toBe(ADDED);
    expect(run.trace).toContainEqual(
      expect.objectContaining({ step: 2, kind: 'user_message', message: ADDED }),
    );
    expect(events.find((e) => e.type === 'user_message')?.data).toEqual({ step: 2, text: ADDED });
    expect(entries.map((e) => e.kind)).toEqual([
      'model_step',
      'tool_started',
      'tool_call',
      'user_message',
      'model_step',
      'tool_started',
      'tool_call',
      'model_step',
    ]);
  });

  it('is read again in the same place by a run taken up from its journal', async () => {
    const whole = await runOnce(replies);
    for (const cut of [4, 5]) {
      const journal = whole.entries.slice(0, cut);
      const modelSteps = journal.filter((e) => e.kind === 'model_step').length;
      const resumed = await runOnce(replies.slice(modelSteps), journal);
      expect(resumed.outcome).toEqual(whole.outcome);
      const live = resumed.model.requests[0].messages;
      expect(live.filter((m) => m.content === ADDED)).toHaveLength(1);
      expect(resumed.run.trace.map((s) => s.kind)).toEqual(whole.run.trace.map((s) => s.kind));
      expect(resumed.entries.filter((e) => e.kind === 'user_message')).toHaveLength(0);
    }
  });
});

/** A run whose model call number `during` (0-based) has `ADDED` posted while it is in flight. */
async function postedDuringModelCall(replies: ScriptedReply[], during: number, agent = react) {
  const model = new ScriptedModelClient(replies);
  const inbox = new InMemoryRunInbox();
  const complete = model.complete.bind(model);
  const accepted: boolean[] = [];
  model.complete = async (request) => {
    if (model.requests.length === during) accepted.push(inbox.post(ADDED));
    return complete(request);
  };
  const store = new InMemoryRunJournal();
  const run = new RunState({ runId: 'run_1', sessionId: '' }, agent, {
    timeoutMs: 10_000,
    events: { emit: () => undefined },
  });
  const ctx = { run, model, functions: arithmetic(), prompts: new PromptSet(agent), journal: store, inbox };
  run.transition('running');
  const outcome = await runStrategy(ctx, [{ role: 'user', content: 'add 2 and 3' }], JSON_PLAN_PARSER);
  run.close();
  return { outcome, run, model, accepted, inbox, entries: store.load('run_1') };
}

describe('a message added while the run gives its answer', () => {
  it('is read by another model step, not dropped with the run', async () => {
    const { outcome, run, model, accepted } = await postedDuringModelCall(
      [action('add', { a: 2, b: 3 }), finalAnswer('5'), finalAnswer('20')],
      1,
    );
    expect(accepted).toEqual([true]);
    expect(model.requests).toHaveLength(3);
    expect(lastUserTurn(model.requests[2].messages)?.content).toBe(ADDED);
    expect(outcome).toMatchObject({ finishReason: 'final', reply: '20' });
    expect(run.trace).toContainEqual(
      expect.objectContaining({ step: 3, kind: 'user_message', message: ADDED }),
    );
  });

  it('a run taken up from its journal after such a step reads the message again, not the old answer', async () => {
    const whole = await postedDuringModelCall(
      [action('add', { a: 2, b: 3 }), finalAnswer('5'), finalAnswer('20')],
      1,
    );
    // the executor stopped after the message was journaled, before the third model step
    const journal = whole.entries.filter((e) => !(e.kind === 'model_step' && e.step === 3));
    const model = new ScriptedModelClient([finalAnswer('20')]);
    const run = new RunState({ runId: 'run_1', sessionId: '' }, react, {
      timeoutMs: 10_000,
      events: { emit: () => undefined },
    });
    const live = {
      run,
      model,
      functions: arithmetic(),
      prompts: new PromptSet(react),
      inbox: new InMemoryRunInbox(),
    };
    run.transition('running');
    const outcome = await runStrategy(
      resumeFromJournal(live, new JournalReplay(journal)),
      [{ role: 'user', content: 'add 2 and 3' }],
      JSON_PLAN_PARSER,
    );
    expect(outcome).toMatchObject({ finishReason: 'final', reply: '20' });
    expect(lastUserTurn(model.requests[0].messages)?.content).toBe(ADDED);
  });

  it('is refused once the run is on its last step (it could not be read), and after the run ended', async () => {
    const limited = defineAgent({ ...react, max_steps: 2 });
    const { outcome, model, accepted, inbox } = await postedDuringModelCall(
      [action('add', { a: 2, b: 3 }), finalAnswer('5')],
      1,
      limited,
    );
    expect(accepted).toEqual([false]);
    expect(model.requests).toHaveLength(2);
    expect(outcome).toMatchObject({ finishReason: 'final', reply: '5' });
    expect(inbox.post('late')).toBe(false);
  });

  it('still waiting when the run pauses is journaled for the step the run resumes with', async () => {
    const inbox = new InMemoryRunInbox();
    const run = new RunState({ runId: 'run_1', sessionId: '' }, react, {
      timeoutMs: 10_000,
      events: { emit: () => undefined },
    });
    const store = new InMemoryRunJournal();
    const ctx = {
      run,
      model: new ScriptedModelClient([]),
      functions: arithmetic(),
      prompts: new PromptSet(react),
      journal: store,
      inbox,
    };
    run.nextStep();
    inbox.post(ADDED);
    await settleInbox(ctx, { finishReason: 'awaiting_approval', reply: '' });
    expect(store.load('run_1')).toEqual([
      expect.objectContaining({ kind: 'user_message', step: 2, text: ADDED }),
    ]);
    expect(new JournalReplay(store.load('run_1')).userMessages(2)).toEqual([ADDED]);
    expect(inbox.post('late')).toBe(false);
  });

  it('still waiting when the run ends otherwise is kept in its trace, saying it was not read', async () => {
    const inbox = new InMemoryRunInbox();
    const run = new RunState({ runId: 'run_1', sessionId: '' }, react, {
      timeoutMs: 10_000,
      events: { emit: () => undefined },
    });
    const ctx = {
      run,
      model: new ScriptedModelClient([]),
      functions: arithmetic(),
      prompts: new PromptSet(react),
      inbox,
    };
    run.nextStep();
    inbox.post(ADDED);
    await settleInbox(ctx, { finishReason: 'cancelled', reply: '' });
    expect(run.trace).toEqual([
      expect.objectContaining({
        kind: 'user_message',
        message: ADDED,
        error: expect.stringMatching(/not read/),
      }),
    ]);
  });
});
