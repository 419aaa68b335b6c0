import { describe, expect, it } from 'vitest';
import { ConfigurationError } from './errors';
import { InMemoryMemoryStore } from './memory/in-memory-memory.store';
import { segmentRun } from './memory/run-segments';
import { AgentRuntime, createRuntime } from './runtime';
import { action, finalAnswer, harness } from './testing/fixtures.fixture';
import { InMemoryFunctions } from './testing/in-memory-functions';
import { ScriptedModelClient } from './testing/scripted-model';

describe('AgentRuntime', () => {
  it('is built with its ports', () => {
    const runtime = AgentRuntime.builder()
      .model(new ScriptedModelClient([]))
      .functions(new InMemoryFunctions())
      .runTimeoutMs(5_000)
      .build();
    expect(runtime.timeoutFor({ run_timeout: 9_000 })).toBe(5_000);
    expect(runtime.timeoutFor({ run_timeout: 1_000 })).toBe(1_000);
  });

  it('names every missing required port', () => {
    expect(() => AgentRuntime.builder().build()).toThrow(ConfigurationError);
    expect(() => AgentRuntime.builder().build()).toThrow(
      'the agent runtime needs a model and a functions port',
    );
    expect(() => AgentRuntime.builder().model(new ScriptedModelClient([])).build()).toThrow(
      'needs a functions port',
    );
  });

  it('refuses a run time limit that is not positive', () => {
    const ports = { model: new ScriptedModelClient([]), functions: new InMemoryFunctions() };
    expect(() => createRuntime({ ...ports, runTimeoutMs: 0 })).toThrow(/runTimeoutMs/);
  });
});

describe('the memory port', () => {
  const remembered = segmentRun({
    runId: 'run-1',
    principal: 'ana',
    sessionId: 'monday',
    agent: 'test',
    input: 'My locker code is 4711.',
    trace: [],
    reply: 'Noted.',
    at: new Date(0),
  });
  const recall = action('memory_retrieve', { query: 'locker code' });

  it('offers each run its memory, within the caller’s memories of the agent', async () => {
    const memory = new InMemoryMemoryStore();
    await memory.append(remembered);
    const observed = async (principal: string) => {
      const { agent, model } = harness([recall, finalAnswer('ok')], {}, { memory });
      await agent.run({ message: 'What was my locker code?', principal });
      expect(model.requests[0].messages[0].content).toContain('memory_retrieve');
      return JSON.stringify(model.requests[1].messages.at(-1));
    };
    expect(await observed('ana')).toContain('4711');
    expect(await observed('bo')).not.toContain('4711');
  });

  it('searches the scope a run is given, and is absent without a store', async () => {
    const memory = new InMemoryMemoryStore();
    await memory.append(remembered);
    const { agent, model } = harness([recall, finalAnswer('ok')], {}, { memory });
    await agent.run({ message: 'Locker?', principal: 'bo', memoryScope: { principal: 'ana' } });
    expect(JSON.stringify(model.requests[1].messages.at(-1))).toContain('4711');

    const forgetful = harness([finalAnswer('ok')]);
    await forgetful.agent.run('hi');
    expect(forgetful.model.requests[0].messages[0].content).not.toContain('memory_retrieve');
  });
});
