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
