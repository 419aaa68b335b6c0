import { describe, expect, it } from 'vitest';
import { ConfigurationError } from './errors';
import { AgentRuntime, createRuntime } from './runtime';
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
