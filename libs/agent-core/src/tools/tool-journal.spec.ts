import { describe, expect, it } from 'vitest';
import { InMemoryRunJournal } from '../journal/in-memory-run-journal';
import { JournalReplay } from '../journal/journal-replay';
import { replayJournal } from '../journal/replay-journal';
import type { RunState } from '../run-state';
import { harness, numberFunction } from '../testing/fixtures.fixture';
import { InMemoryFunctions } from '../testing/in-memory-functions';
import type { ScriptedReply } from '../testing/scripted-model';
import type { ToolCall, ToolOutcome } from './tool-call';

const BOTH: ScriptedReply = {
  text: '',
  toolCalls: [
    { id: 'c1', name: 'slow', arguments: { a: 1, b: 1 } },
    { id: 'c2', name: 'fast', arguments: { a: 1, b: 1 } },
  ],
};

/**
 * `slow` (called first) ends only once `fast` is journaled: were calls journaled per batch, the
 * run would never end.
 */
function slowAfterFastJournaled() {
  const events: string[] = [];
  let fastJournaled!: () => void;
  const journaled = new Promise<void>((resolve) => (fastJournaled = resolve));
  const functions = new InMemoryFunctions()
    .add(numberFunction('slow'), async () => {
      await journaled;
      events.push('slow ended');
      return { data: { v: 'slow' } };
    })
    .add(numberFunction('fast'), () => ({ data: { v: 'fast' } }));
  const store = new (class extends InMemoryRunJournal {
    override toolCallCompleted(run: RunState, call: ToolCall, outcome: ToolOutcome): void {
      super.toolCallCompleted(run, call, outcome);
      events.push(`${call.name} journaled`);
      if (call.name === 'fast') fastJournaled();
    }
  })();
  return { events, functions, store };
}

describe('tool calls in the journal', () => {
  it(
    'each call is journaled as it settles: a fast call before a slow one of the same reply ends',
    { timeout: 5_000 },
    async () => {
      const { events, functions, store } = slowAfterFastJournaled();
      const hooked: string[] = [];
      const hooks = {
        afterTool: (_run: RunState, outcome: ToolOutcome) => void hooked.push(outcome.call.name),
      };
      const { agent } = harness([BOTH, 'done'], { protocol: 'native' }, { functions, journal: store, hooks });

      const result = await agent.run({ message: 'both', runId: 'run_1' });

      expect(events).toEqual(['fast journaled', 'slow ended', 'slow journaled']);
      expect(hooked).toEqual(['slow', 'fast']);
      expect(result.function_calls.map((call) => call.name)).toEqual(['slow', 'fast']);
      const entries = store.load('run_1').filter((entry) => entry.kind === 'tool_call');
      expect(entries.map((entry) => [entry.name, entry.index])).toEqual([
        ['fast', 1],
        ['slow', 0],
      ]);
    },
  );

  it('a journal in settling order rebuilds the run as it ran, calls in call order', async () => {
    const { functions, store } = slowAfterFastJournaled();
    const { agent, model } = harness([BOTH, 'done'], { protocol: 'native' }, { functions, journal: store });
    const result = await agent.run({ message: 'both', runId: 'run_1' });
    const entries = store.load('run_1');

    const replayed = replayJournal(entries, { protocol: 'native', opening: model.requests[0].messages });

    expect(replayed.messages).toEqual([...model.requests[1].messages, expect.anything()]);
    expect(replayed.trace).toEqual(result.trace);
    const replay = new JournalReplay(entries);
    expect(replay.toolCall(1, 0)).toMatchObject({ name: 'slow', index: 0 });
    expect(replay.toolCall(1, 1)).toMatchObject({ name: 'fast', index: 1 });
  });
});
