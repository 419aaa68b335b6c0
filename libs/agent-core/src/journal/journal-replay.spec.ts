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
import { InMemoryRunJournal } from './in-memory-run-journal';
import type { JournalEntry } from './journal-entry';
import { JournalReplay, resumeFromJournal } from './journal-replay';

/** One run of `definition` on the scripted `replies`; from `journal` when given (a run taken up again). */
async function runOnce(
  definition: AgentDefinition,
  replies: ScriptedReply[],
  journal?: JournalEntry[],
  functions = arithmetic(),
) {
  const model = new ScriptedModelClient(replies);
  const store = new InMemoryRunJournal();
  const events: RunEvent[] = [];
  const run = new RunState({ runId: 'run_1', sessionId: '' }, definition, {
    timeoutMs: 10_000,
    events: { emit: (event) => events.push(event) },
  });
  const live = { run, model, functions, prompts: new PromptSet(definition), journal: store };
  const ctx = journal ? resumeFromJournal(live, new JournalReplay(journal)) : live;
  run.transition('running');
  const outcome = await runStrategy(ctx, [{ role: 'user', content: 'work it out' }], JSON_PLAN_PARSER);
  run.close();
  return { outcome, run, model, functions, events, entries: store.load('run_1') };
}

/** The trace without its timings (a call made live again takes its own time). */
const untimed = (trace: readonly TraceStep[]) => trace.map((step) => ({ ...step, elapsed_ms: 0 }));

/** The journal as it stood after its first `n` entries were written. */
const prefix = (entries: JournalEntry[], n: number) => entries.slice(0, n);
/** Where the run can stop with nothing in flight: after each entry but a call's start. */
const settledCuts = (entries: JournalEntry[]) =>
  entries.flatMap((entry, i) => (entry.kind === 'tool_started' ? [] : [i + 1]));
const count = (entries: JournalEntry[], kind: JournalEntry['kind']) =>
  entries.filter((entry) => entry.kind === kind).length;

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
    const modelSteps = count(whole.entries, 'model_step');
    const toolCalls = count(whole.entries, 'tool_call');
    expect(toolCalls).toBeGreaterThan(0);
    for (const n of settledCuts(whole.entries)) {
      const journal = prefix(whole.entries, n);
      const journaledSteps = count(journal, 'model_step');
      const journaledCalls = count(journal, 'tool_call');
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
    const afterFirstCall = whole.entries.findIndex((entry) => entry.kind === 'tool_call') + 1;
    const resumed = await runOnce(definition, replies.slice(1), prefix(whole.entries, afterFirstCall));
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

describe('a call in flight when the run stopped (started, no outcome journaled)', () => {
  const replies = [action('add', { a: 2, b: 3 }), finalAnswer('5')];
  const inFlight = async () => {
    const whole = await runOnce(react, replies);
    const started = whole.entries.findIndex((entry) => entry.kind === 'tool_started');
    return { whole, journal: prefix(whole.entries, started + 1) };
  };

  it('is not sent again when its function is not idempotent: the model is told its outcome is unknown', async () => {
    const { journal } = await inFlight();
    const resumed = await runOnce(react, replies.slice(1), journal);
    expect(resumed.functions.calls).toHaveLength(0);
    const action = resumed.run.trace.find((step) => step.kind === 'action');
    expect(action?.error).toMatch(/unknown/);
    expect(resumed.model.requests[0].messages.at(-1)?.content).toMatch(/whether it took effect is unknown/);
    expect(resumed.entries.find((entry) => entry.kind === 'tool_call')).toMatchObject({
      status: 'error',
      error: { code: 'outcome_unknown' },
    });
  });

  it('is sent again with the same idempotency key when its function is idempotent', async () => {
    const idempotentAdd = async () => {
      const functions = arithmetic();
      const definition = (await functions.find('add'))!;
      return arithmetic().add({ ...definition, idempotent: true }, ({ a, b }) => ({
        data: { sum: (a as number) + (b as number) },
      }));
    };
    const whole = await runOnce(react, replies, undefined, await idempotentAdd());
    const started = whole.entries.findIndex((entry) => entry.kind === 'tool_started');
    const journal = prefix(whole.entries, started + 1);
    const resumed = await runOnce(react, replies.slice(1), journal, await idempotentAdd());
    expect(resumed.outcome.reply).toBe(whole.outcome.reply);
    expect(resumed.functions.calls).toHaveLength(1);
    expect(resumed.functions.calls[0].idempotencyKey).toBe(whole.functions.calls[0].idempotencyKey);
    expect(resumed.functions.calls[0].idempotencyKey).toBe('run_1:1:0');
  });

  it('carries no idempotency key when its function is not idempotent (it is never sent again)', async () => {
    const { whole } = await inFlight();
    expect(whole.functions.calls[0].idempotencyKey).toBeUndefined();
  });
});

describe('a step whose calls were journaled in part', () => {
  it('replays the journaled call, and the resumed run journals the other under its own index', async () => {
    const native = defineAgent({ name: 'test', protocol: 'native', allowed_tools: ['*'] });
    const replies: ScriptedReply[] = [
      {
        text: '',
        toolCalls: [
          { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
          { id: 'c2', name: 'multiply', arguments: { a: 3, b: 4 } },
        ],
      },
      'The sum is 3, the product 12.',
    ];
    const whole = await runOnce(native, replies);
    const firstOutcome = whole.entries.findIndex((entry) => entry.kind === 'tool_call');
    const resumed = await runOnce(native, replies.slice(1), prefix(whole.entries, firstOutcome + 1));
    expect(resumed.functions.calls).toHaveLength(0);
    const journaled = resumed.entries.filter((entry) => entry.kind === 'tool_call');
    expect(journaled).toHaveLength(1);
    expect(journaled[0]).toMatchObject({ index: 1, name: 'multiply', error: { code: 'outcome_unknown' } });
  });
});

describe('a plan run taken over after its plan was approved', () => {
  it('runs from the top without holding the plan again and gives the approved run’s answer', async () => {
    const held = { ...plan, plan_approval: true };
    const replies: ScriptedReply[] = [
      planOf({ tool: 'add', params: { a: 1, b: 2 } }, { tool: 'multiply', params: { a: 2, b: 3 } }),
      'Sum 3, product 6.',
    ];
    // the turn that holds the plan, then the approved run carrying it out, on one journal
    const store = new InMemoryRunJournal();
    const functions = arithmetic();
    const model = new ScriptedModelClient(replies);
    const first = new RunState({ runId: 'run_1', sessionId: '' }, held, { timeoutMs: 10_000 });
    first.transition('running');
    const conversation = [{ role: 'user' as const, content: 'work it out' }];
    const ctx = { model, functions, prompts: new PromptSet(held), journal: store };
    const hold = await runStrategy({ ...ctx, run: first }, conversation, JSON_PLAN_PARSER);
    first.close();
    expect(hold.finishReason).toBe('awaiting_approval');
    const approved = new RunState({ runId: 'run_1', sessionId: '' }, held, {
      timeoutMs: 10_000,
      prior: {
        usage: first.usage,
        trace: first.trace,
        usedTools: first.usedTools,
        totalMs: 0,
        plan: first.plan,
      },
    });
    approved.transition('running');
    const answer = await runStrategy({ ...ctx, run: approved }, conversation, JSON_PLAN_PARSER);
    approved.close();
    const journal = store.load('run_1');
    const afterFirstCall = journal.findIndex((entry) => entry.kind === 'tool_call') + 1;

    const resumed = await runOnce(plan, replies.slice(1), prefix(journal, afterFirstCall));
    expect(resumed.outcome).toMatchObject({ finishReason: 'final', reply: answer.reply });
    expect(resumed.functions.calls.map((call) => call.name)).toEqual(['multiply']);
    expect(resumed.model.requests).toHaveLength(1);
  });
});
