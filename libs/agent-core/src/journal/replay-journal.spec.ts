import { describe, expect, it } from 'vitest';
import type { AgentProtocol } from '@app/contracts';
import { action, finalAnswer, harness } from '../testing/fixtures.fixture';
import type { ScriptedReply } from '../testing/scripted-model';
import { InMemoryRunJournal } from './in-memory-run-journal';
import type { JournalEntry } from './journal-entry';
import { replayJournal } from './replay-journal';

async function journaledRun(replies: ScriptedReply[], protocol: AgentProtocol) {
  const store = new InMemoryRunJournal();
  const live = harness(replies, { protocol }, { journal: store });
  const result = await live.agent.run({ message: 'work it out', runId: 'run_1' });
  return { result, requests: live.model.requests, entries: store.load('run_1') };
}

/** The entries journaled before the model step `n` (0-based) was called. */
function before(entries: JournalEntry[], n: number): JournalEntry[] {
  const steps = entries.filter((entry) => entry.kind === 'model_step');
  return entries.filter((entry) => entry.seq < steps[n].seq);
}

describe('replayJournal', () => {
  it('rebuilds, after every step, the conversation the live run sent at the next one', async () => {
    const { result, requests, entries } = await journaledRun(
      [action('add', { a: 2, b: 3 }), 'not json', action('multiply', { a: 5, b: 4 }), finalAnswer('20')],
      'json-action',
    );
    expect(result.finish_reason).toBe('final');
    expect(requests).toHaveLength(4);
    const opening = requests[0].messages;
    for (let n = 1; n < requests.length; n++) {
      const replayed = replayJournal(before(entries, n), { protocol: 'json-action', opening });
      expect(replayed.messages).toEqual(requests[n].messages);
    }
  });

  it('restores usage, steps, tool statistics and the trace as the run ended with them', async () => {
    const { result, requests, entries } = await journaledRun(
      [action('add', { a: 2, b: 3 }), 'not json', action('multiply', { a: 5, b: 4 }), finalAnswer('20')],
      'json-action',
    );
    const replayed = replayJournal(entries, { protocol: 'json-action', opening: requests[0].messages });
    expect(replayed.usage).toEqual(result.usage);
    expect(replayed.step).toBe(4);
    expect(replayed.toolCallsExecuted).toBe(2);
    expect(replayed.usedTools).toEqual(result.used_tools);
    expect(replayed.trace).toEqual(result.trace);
  });

  it('native: answers each call of a reply with its own tool message, in order, whatever the entry order given', async () => {
    const calls = [
      { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
      { id: 'c2', name: 'multiply', arguments: { a: 3, b: 4 } },
    ];
    const { requests, entries } = await journaledRun(
      [{ text: 'two at once', toolCalls: calls }, 'the sum is 3, the product 12'],
      'native',
    );
    expect(entries.filter((entry) => entry.kind !== 'tool_started').map((entry) => entry.kind)).toEqual([
      'model_step',
      'tool_call',
      'tool_call',
      'model_step',
    ]);
    const replayed = replayJournal([...before(entries, 1)].reverse(), {
      protocol: 'native',
      opening: requests[0].messages,
    });
    expect(replayed.messages).toEqual(requests[1].messages);
    expect(replayed.messages.slice(-2).map((m) => m.toolCallId)).toEqual(['c1', 'c2']);
  });

  it('journals a refused call as not executed: it is replayed to the model but not counted', async () => {
    const { requests, entries } = await journaledRun(
      [action('divide', { a: 1, b: 0 }), finalAnswer('cannot')],
      'json-action',
    );
    expect(entries[1]).toMatchObject({ kind: 'tool_call', name: 'divide', status: 'error', executed: false });
    const replayed = replayJournal(before(entries, 1), {
      protocol: 'json-action',
      opening: requests[0].messages,
    });
    expect(replayed.messages).toEqual(requests[1].messages);
    expect(replayed.toolCallsExecuted).toBe(0);
  });
});
