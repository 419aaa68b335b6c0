import { describe, expect, it } from 'vitest';
import type { TraceStep } from '@app/contracts';
import { type AgentDefinition, defineAgent } from '../agent-definition';
import type { RunEvent } from '../events';
import { PromptSet } from '../prompts/prompt-set';
import { RunState } from '../run-state';
import { runStrategy } from '../run-turn';
import { JSON_PLAN_PARSER } from '../strategies/plan-parser';
import { action, arithmetic, finalAnswer } from '../testing/fixtures.fixture';
import { type ScriptedReply, ScriptedModelClient } from '../testing/scripted-model';
import { InMemoryRunStore } from './in-memory-run-store';
import type { JournalEntry } from './journal-entry';
import { JournalReplay, resumeFromJournal } from './journal-replay';

/** One run of `definition` on the scripted `replies`; from `journal` when given (a run taken up again). */
async function runOnce(definition: AgentDefinition, replies: ScriptedReply[], journal?: JournalEntry[]) {
  const model = new ScriptedModelClient(replies);
  const functions = arithmetic();
  const store = new InMemoryRunStore();
  const events: RunEvent[] = [];
  const run = new RunState({ runId: 'run_1', sessionId: '' }, definition, {
    timeoutMs: 10_000,
    events: { emit: (event) => events.push(event) },
  });
  const live = { run, model, functions, prompts: new PromptSet(definition), store };
  const ctx = journal ? resumeFromJournal(live, new JournalReplay(journal)) : live;
  run.transition('running');
  const outcome = await runStrategy(ctx, [{ role: 'user', content: 'work it out' }], JSON_PLAN_PARSER);
  run.close();
  return { outcome, run, model, functions, events, entries: store.load('run_1') };
}

/** The trace without its timings (a call made live again takes its own time). */
const untimed = (trace: TraceStep[]) => trace.map((step) => ({ ...step, elapsed_ms: 0 }));

/** The journal as it stood after its first `n` entries were written. */
const prefix = (entries: JournalEntry[], n: number) => entries.slice(0, n);

const react = defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'] });
const plan = defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'], mode: 'plan' });
const planOf = (...steps: { tool: string; params: Record<string, unknown> }[]) =>
  JSON.stringify({ steps: steps.map((step) => ({ description: step.tool, ...step })) });

const cases: [string, AgentDefinition, ScriptedReply[]][] = [
  [
    'ReAct',
    react,
    [action('add', { a: 2, b: 3 }), 'not json', action('multiply', { a: 5, b: 4 }), finalAnswer('20')],
  ],
  [
    'plan',
    plan,
    [
      planOf({ tool: 'add', params: { a: 1, b: 2 } }, { tool: 'multiply', params: { a: 2, b: 3 } }),
      'Sum 3, product 6.',
    ],
  ],
];

describe.each(cases)('a %s run taken up again from its journal', (_name, definition, replies) => {
  it('gives the same answer after every step, and calls no model or function twice', async () => {
    const whole = await runOnce(definition, replies);
    expect(whole.outcome.finishReason).toBe('final');
    const modelSteps = whole.entries.filter((entry) => entry.kind === 'model_step').length;
    const toolCalls = whole.entries.filter((entry) => entry.kind === 'tool_call').length;
    expect(toolCalls).toBeGreaterThan(0);
    for (let n = 1; n <= whole.entries.length; n++) {
      const journal = prefix(whole.entries, n);
      const journaledSteps = journal.filter((entry) => entry.kind === 'model_step').length;
      const journaledCalls = journal.filter((entry) => entry.kind === 'tool_call').length;
      const resumed = await runOnce(definition, replies.slice(journaledSteps), journal);

      expect(resumed.outcome.reply).toBe(whole.outcome.reply);
      expect(untimed(resumed.run.trace)).toEqual(untimed(whole.run.trace));
      expect(resumed.run.usage).toEqual(whole.run.usage);
      expect(resumed.model.requests).toHaveLength(modelSteps - journaledSteps);
      expect(resumed.functions.calls).toHaveLength(toolCalls - journaledCalls);
      // the live part journals only what it did itself
      expect(resumed.entries).toHaveLength(whole.entries.length - n);
    }
  });

  it('sends the model the conversation the first run would have sent', async () => {
    const whole = await runOnce(definition, replies);
    const first = whole.entries.findIndex((entry, i) => i > 0 && entry.kind === 'model_step');
    const resumed = await runOnce(definition, replies.slice(1), prefix(whole.entries, first));
    expect(resumed.model.requests[0].messages).toEqual(whole.model.requests[1].messages);
  });

  it('withholds the events of replayed steps and tells the live ones', async () => {
    const whole = await runOnce(definition, replies);
    const resumed = await runOnce(definition, replies.slice(1), prefix(whole.entries, 2));
    const told = resumed.events.map((event) => event.type);
    expect(told.length).toBeGreaterThan(0);
    expect(told.length).toBeLessThan(whole.events.length);
  });
});

describe('a journal the run parts ways with', () => {
  it('is dropped at the first model step it does not hold, and the rest runs live', async () => {
    const whole = await runOnce(react, [action('add', { a: 2, b: 3 }), finalAnswer('5')]);
    const stray = whole.entries.map((entry) => ({ ...entry, step: entry.step + 5 }));
    const resumed = await runOnce(react, [action('add', { a: 2, b: 3 }), finalAnswer('5')], stray);
    expect(resumed.outcome.reply).toBe('5');
    expect(resumed.model.requests).toHaveLength(2);
    expect(resumed.functions.calls).toHaveLength(1);
  });
});
