import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import type { ChatMessage, CompletionRequest } from './model/model-client';
import { AgentSession } from './session';
import { arithmetic, harness, numberFunction } from './testing/fixtures.fixture';
import { InMemoryFunctions } from './testing/in-memory-functions';

// What a provider's prompt cache needs: each request starts with the whole previous one, so its
// prefix is the one the cache holds. These tests hold the engine to it.

const xmlCall = (name: string, a: number, b: number) =>
  `<call name="${name}">\n  <p>a: ${a}</p>\n  <p>b: ${b}</p>\n</call>`;

function startsWith(request: CompletionRequest, prefix: ChatMessage[]): boolean {
  return JSON.stringify(request.messages.slice(0, prefix.length)) === JSON.stringify(prefix);
}

describe('prompts built for the cache', () => {
  it('starts every request of a run with the whole previous request, under one cache key', async () => {
    const { agent, model } = harness([xmlCall('add', 2, 3), xmlCall('multiply', 5, 4), 'It is 20.'], {
      protocol: 'xml-toon',
    });
    const result = await agent.run({ message: '(2 + 3) × 4?', sessionId: 'ses_1' });
    expect(result.reply).toBe('It is 20.');
    const [first, second, third] = model.requests;
    expect(startsWith(second, first.messages)).toBe(true);
    expect(startsWith(third, second.messages)).toBe(true);
    expect(third.messages.length).toBe(first.messages.length + 4);
    expect(new Set(model.requests.map((request) => request.cacheKey))).toEqual(new Set(['ses_1']));
  });

  it('keys the cache by the run when there is no session', async () => {
    const { agent, model } = harness(['Hi.'], { protocol: 'xml-toon' });
    const result = await agent.run({ message: 'Hello', runId: 'run_abc' });
    expect(result.run_id).toBe('run_abc');
    expect(model.requests[0].cacheKey).toBe('run_abc');
  });

  it("starts a session's next turn with the previous turn's prompt and message, then appends", async () => {
    const { agent, model } = harness([xmlCall('add', 2, 3), 'Five.', 'Still five.'], {
      protocol: 'xml-toon',
    });
    const session = new AgentSession(agent);
    await session.submitTurn('2 + 3?');
    await session.submitTurn('Sure?');
    const [opening, , nextTurn] = model.requests;
    expect(startsWith(nextTurn, opening.messages)).toBe(true);
    expect(nextTurn.messages.slice(opening.messages.length)).toEqual([
      { role: 'assistant', content: 'Five.' },
      { role: 'user', content: 'Sure?' },
    ]);
  });

  it('lists the functions in the same order whatever order the catalogue hands them out in', async () => {
    const shuffled = (order: string[]): InMemoryFunctions => {
      const functions = new InMemoryFunctions();
      for (const name of order) functions.add(numberFunction(name), () => ({ data: {} }));
      // a catalogue in the order its providers answered, not sorted
      const definitions: FunctionDefinition[] = order.map((name) => numberFunction(name));
      functions.catalogue = async () => definitions;
      return functions;
    };
    const systemOf = async (order: string[]) => {
      const { agent, model } = harness(['Done.'], { protocol: 'xml-toon' }, { functions: shuffled(order) });
      await agent.run('Hi');
      return model.requests[0].messages[0].content;
    };
    const one = await systemOf(['zeta', 'Alpha', 'beta', 'add']);
    expect(await systemOf(['beta', 'add', 'zeta', 'Alpha'])).toBe(one);
    expect(one.indexOf('Alpha(')).toBeLessThan(one.indexOf('add('));
  });

  it("keeps the agent's prompt whole and puts the caller's instructions for the turn after it", async () => {
    const withInstructions = harness(['Done.'], {
      protocol: 'xml-toon',
      turn_instructions: 'Today is Tuesday.',
    });
    const without = harness(['Done.'], { protocol: 'xml-toon' });
    await withInstructions.agent.run('Hi');
    await without.agent.run('Hi');
    const [system, instructions, user] = withInstructions.model.requests[0].messages;
    expect(system).toEqual(without.model.requests[0].messages[0]);
    expect(instructions).toEqual({ role: 'system', content: 'Today is Tuesday.' });
    expect(user).toEqual({ role: 'user', content: 'Hi' });
  });

  it('builds the same system prompt for the same agent on every run', async () => {
    const prompts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { agent, model } = harness(['Done.'], { protocol: 'xml-toon' }, { functions: arithmetic() });
      await agent.run({ message: `Run ${i}`, runId: `run_${i}`, sessionId: `ses_${i}` });
      prompts.push(model.requests[0].messages[0].content);
    }
    expect(new Set(prompts).size).toBe(1);
  });
});
