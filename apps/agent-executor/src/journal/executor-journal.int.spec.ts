// The journal of runs the executor serves over the bus: wired into the engine, written by the time
// the run answers, and enough to rebuild what the model was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatMessage, replayJournal } from '@app/agent-core';
import { RunJournalStore } from './run-journal.store';
import { ask } from '../testing/executor-app';
import { arithmetic, startWorld, type World } from '../testing/world';

const call = (name: string, a: number, b: number) =>
  `<call name="${name}"><p>a: ${a}</p><p>b: ${b}</p></call>`;

let world: World;

beforeAll(async () => {
  world = await startWorld({
    functions: arithmetic,
    agents: [{ name: 'calc', allowed_tools: ['add', 'multiply'] }],
  });
});
afterAll(() => world?.close());

/** The conversation the scripted model received in its `index`th request. */
function sent(index: number): Pick<ChatMessage, 'role' | 'content'>[] {
  const { messages } = world.llm.requests()[index].body as { messages: ChatMessage[] };
  return messages.map(({ role, content }) => ({ role, content }));
}

describe("the executor's run journal", () => {
  it('holds every step of a served run by the time it answers, and rebuilds what the model was sent', async () => {
    world.script({ replies: [call('add', 2, 3), call('multiply', 5, 4), 'The answer is 20.'] });
    const reply = await ask(world.bus, { message: 'What is (2 + 3) * 4?', agent: 'calc' });
    expect(reply.finish_reason).toBe('final');
    const entries = await world.executor.app.get(RunJournalStore).load(reply.run_id);
    expect(entries.map((entry) => `${entry.seq}:${entry.step}:${entry.kind}`)).toEqual([
      '1:1:model_step',
      '2:1:tool_started',
      '3:1:tool_call',
      '4:2:model_step',
      '5:2:tool_started',
      '6:2:tool_call',
      '7:3:model_step',
    ]);
    const replayed = replayJournal(entries.slice(0, 6), { protocol: 'xml-toon', opening: sent(0) });
    expect(replayed.messages.map(({ role, content }) => ({ role, content }))).toEqual(sent(2));
    const last = entries[6];
    if (last.kind !== 'model_step') throw new Error('the run ends with a model step');
    expect(replayed.usage).toEqual({
      prompt_tokens: reply.usage.prompt_tokens - last.usage.prompt_tokens,
      completion_tokens: reply.usage.completion_tokens - last.usage.completion_tokens,
    });
  });
});
