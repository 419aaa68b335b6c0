import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent-definition';
import { InMemoryRunJournal } from '../journal/in-memory-run-journal';
import { PromptSet } from '../prompts/prompt-set';
import { RunState } from '../run-state';
import { runStrategy } from '../run-turn';
import { JSON_PLAN_PARSER } from '../strategies/plan-parser';
import { action, finalAnswer, numberFunction } from '../testing/fixtures.fixture';
import { InMemoryFunctions } from '../testing/in-memory-functions';
import { ScriptedModelClient } from '../testing/scripted-model';

/** A journal whose call-start writes wait until the test lets them through. */
class GatedStore extends InMemoryRunJournal {
  private open!: () => void;
  readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  startsHandedOver = 0;

  override toolCallStarted(...args: Parameters<InMemoryRunJournal['toolCallStarted']>): Promise<void> {
    this.startsHandedOver += 1;
    super.toolCallStarted(...args);
    return this.gate;
  }

  release(): void {
    this.open();
  }
}

/** One ReAct turn that calls `add` once, on a journal whose call-start writes are held back. */
function turnCallingAdd(idempotent: boolean) {
  const store = new GatedStore();
  const functions = new InMemoryFunctions().add({ ...numberFunction('add'), idempotent }, ({ a, b }) => ({
    data: { sum: (a as number) + (b as number) },
  }));
  const definition = defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'] });
  const run = new RunState({ runId: 'run_1', sessionId: '' }, definition, {
    timeoutMs: 10_000,
    events: { emit: () => undefined },
  });
  const model = new ScriptedModelClient([action('add', { a: 2, b: 3 }), finalAnswer('5')]);
  run.transition('running');
  const outcome = runStrategy(
    { run, model, functions, prompts: new PromptSet(definition), journal: store },
    [{ role: 'user', content: 'add them' }],
    JSON_PLAN_PARSER,
  );
  return { store, functions, outcome };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('journaling a call before it is sent', () => {
  it('waits for the start entry before sending a call that is not idempotent', async () => {
    const { store, functions, outcome } = turnCallingAdd(false);
    for (let i = 0; i < 20; i++) await settle();
    expect(store.startsHandedOver).toBe(1);
    expect(functions.calls).toHaveLength(0);

    store.release();
    expect((await outcome).finishReason).toBe('final');
    expect(functions.calls).toHaveLength(1);
  });

  it('sends an idempotent call at once, its start entry written behind it and still first', async () => {
    const { store, functions, outcome } = turnCallingAdd(true);
    const done = await outcome;

    expect(done.finishReason).toBe('final');
    expect(functions.calls).toHaveLength(1);
    expect(store.load('run_1').map((entry) => entry.kind)).toEqual([
      'model_step',
      'tool_started',
      'tool_call',
      'model_step',
    ]);
  });
});
