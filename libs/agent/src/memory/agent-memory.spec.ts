import { describe, expect, it } from 'vitest';
import { InMemoryMemoryStore, type MemoryStore, ScriptedModelClient } from '@app/agent-core';
import { createAgent } from '../create-agent';

const RETRIEVE = '<call name="memory_retrieve"><p>query: locker code</p></call>';

function agentOf(model: ScriptedModelClient, store: MemoryStore, principal: string) {
  return createAgent({ name: 'concierge', model, memory: { store, scope: { principal } } });
}

describe('createAgent with memory', () => {
  it('recalls in one session what was said in another, archived only after the result', async () => {
    const store = new InMemoryMemoryStore();
    const model = new ScriptedModelClient(['Noted: locker 4711.', RETRIEVE, 'Your locker code is 4711.']);
    const agent = agentOf(model, store, 'ana');

    const first = await agent.session('monday').submitTurn('My locker code is 4711.');
    expect(await store.search({ principal: 'ana' }, ['locker'], 5)).toEqual([]);
    await agent.memory?.settled();
    const second = await agent.session('friday').submitTurn('What was my locker code?');

    expect(first.reply).toBe('Noted: locker 4711.');
    expect(second.reply).toBe('Your locker code is 4711.');
    expect(model.requests[0].messages[0].content).toMatch(/memory_retrieve/);
    const observation = JSON.stringify(model.requests[2].messages.at(-1));
    expect(observation).toMatch(/My locker code is 4711/);
    expect(observation).toMatch(/monday/);
  });

  it('keeps each principal to their own memories', async () => {
    const store = new InMemoryMemoryStore();
    const ana = agentOf(new ScriptedModelClient(['Noted.']), store, 'ana');
    await ana.run('My locker code is 4711.');
    await ana.memory?.settled();
    const model = new ScriptedModelClient([RETRIEVE, 'I do not know.']);

    await agentOf(model, store, 'bo').run('What was my locker code?');

    const observation = JSON.stringify(model.requests[1].messages.at(-1));
    expect(observation).toMatch(/chunks/);
    expect(observation).not.toMatch(/4711/);
  });

  it('archives completed runs only, and a failed write never reaches the caller', async () => {
    const failing: MemoryStore = {
      append: () => Promise.reject(new Error('disk full')),
      search: async () => [],
      expand: async () => undefined,
    };
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (msg: string) => errors.push(msg),
      child: () => logger,
    };
    const agent = createAgent({
      name: 'concierge',
      model: new ScriptedModelClient([{ error: new Error('model down') }, 'Fine.']),
      memory: { store: failing, scope: { principal: 'ana' } },
      logger,
    });

    const failed = await agent.run('First question');
    await agent.memory?.settled();
    expect(failed.phase).toBe('failed');
    expect(errors).toEqual([]);

    const answered = await agent.run('Second question');
    await agent.memory?.settled();
    expect(answered.reply).toBe('Fine.');
    expect(errors).toEqual(['could not archive the run to memory; the run is not affected']);
  });

  it('keeps its memory in this process when given no store', async () => {
    const agent = createAgent({
      name: 'concierge',
      model: new ScriptedModelClient(['Noted.']),
      memory: { scope: { principal: 'ana' } },
    });
    await agent.run('Remember the blue umbrella');
    await agent.memory?.settled();

    const found = await agent.memory?.store.search({ principal: 'ana' }, ['umbrella'], 5);
    expect(found?.map((c) => c.agent)).toEqual(['concierge']);
  });
});
