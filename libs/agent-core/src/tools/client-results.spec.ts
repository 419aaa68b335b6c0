import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent-definition';
import { InMemoryRunJournal } from '../journal/in-memory-run-journal';
import type { JournalEntry } from '../journal/journal-entry';
import { JournalReplay, resumeFromJournal } from '../journal/journal-replay';
import { PromptSet } from '../prompts/prompt-set';
import { RunState } from '../run-state';
import { runStrategy } from '../run-turn';
import { JSON_PLAN_PARSER } from '../strategies/plan-parser';
import { action, arithmetic, finalAnswer } from '../testing/fixtures.fixture';
import { type ScriptedReply, ScriptedModelClient } from '../testing/scripted-model';
import { ClientResults } from './client-results';
import { ClientToolSet } from './client-tool-set';

const agent = defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'] });
const askUser = new ClientToolSet([
  { name: 'ask_user', parameters: { type: 'object', properties: { question: { type: 'string' } } } },
]);

/** One run of the agent on `replies`; from `journal` with the caller's `results` when given. */
async function runOnce(replies: ScriptedReply[], journal?: JournalEntry[], results?: ClientResults) {
  const model = new ScriptedModelClient(replies);
  const store = new InMemoryRunJournal();
  const run = new RunState({ runId: 'run_1', sessionId: '' }, agent, { timeoutMs: 10_000 });
  const live = {
    run,
    model,
    functions: arithmetic(),
    prompts: new PromptSet(agent),
    journal: store,
    clientTools: askUser,
    ...(results ? { clientResults: results } : {}),
  };
  const ctx = journal ? resumeFromJournal(live, new JournalReplay(journal)) : live;
  run.transition('running');
  const outcome = await runStrategy(ctx, [{ role: 'user', content: 'help' }], JSON_PLAN_PARSER);
  run.close();
  return { outcome, run, model, entries: store.load('run_1') };
}

describe('a run paused for client tool results, given them', () => {
  it('goes on in the same run: the reply that asked is answered, one trace and usage over both parts', async () => {
    const replies = [
      action('add', { a: 1, b: 2 }),
      action('ask_user', { question: 'Which?' }),
      finalAnswer('Blue it is.'),
    ];
    const paused = await runOnce(replies);
    expect(paused.outcome).toMatchObject({
      finishReason: 'client_tool_calls',
      clientCalls: [{ id: 'call_run_1_0', name: 'ask_user' }],
    });
    const results = new ClientResults([{ tool_call_id: 'call_run_1_0', content: 'blue' }]);
    const resumed = await runOnce(replies.slice(2), paused.entries, results);
    expect(resumed.outcome).toMatchObject({ finishReason: 'final', reply: 'Blue it is.' });
    // only the model step after the results was sent; the two before came from the journal
    expect(resumed.model.requests).toHaveLength(1);
    const sent = resumed.model.requests[0].messages.at(-1)?.content ?? '';
    expect(sent).toContain('blue');
    expect(resumed.run.trace.map((step) => step.kind)).toEqual(['action', 'client_tool_call', 'final']);
    expect(resumed.run.trace[1]).toMatchObject({
      call_id: 'call_run_1_0',
      observation: expect.stringContaining('blue'),
    });
    expect(resumed.run.usage.prompt_tokens).toBeGreaterThan(paused.run.usage.prompt_tokens);
  });

  it('keeps the results in its journal: taken over after reading them, it goes on without asking again', async () => {
    const replies = [action('ask_user', { question: 'Which?' }), finalAnswer('Blue it is.')];
    const paused = await runOnce(replies);
    const results = new ClientResults([{ tool_call_id: 'call_run_1_0', content: 'blue' }]);
    const resumed = await runOnce(replies.slice(1), paused.entries, results);
    // the executor stopped after the results were journaled, before the next model step came back
    const after = resumed.entries.filter((entry) => entry.kind !== 'model_step');
    expect(after.map((entry) => entry.kind)).toEqual(['tool_call']);
    const journal = [...paused.entries, ...after];
    const takenOver = await runOnce(replies.slice(1), journal);
    expect(takenOver.outcome).toMatchObject({ finishReason: 'final', reply: 'Blue it is.' });
    expect(takenOver.model.requests[0].messages.at(-1)?.content).toContain('blue');
  });

  it('pauses again for calls the results do not answer', async () => {
    const replies = [action('ask_user', { question: 'Which?' }), finalAnswer('never')];
    const paused = await runOnce(replies);
    const other = new ClientResults([{ tool_call_id: 'call_run_1_9', content: 'x' }]);
    const again = await runOnce(replies.slice(1), paused.entries, other);
    expect(again.outcome).toMatchObject({ finishReason: 'client_tool_calls' });
    expect(again.model.requests).toHaveLength(0);
  });
});
