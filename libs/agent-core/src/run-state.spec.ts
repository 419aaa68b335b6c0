import { describe, expect, it } from 'vitest';
import { defineAgent } from './agent-definition';
import { IllegalTransition } from './errors';
import { RunState } from './run-state';

function newRun(options: { timeoutMs?: number; budget?: number } = {}) {
  const definition = defineAgent({ name: 'a', total_token_budget: options.budget ?? 0 });
  return new RunState({ runId: 'run_1', sessionId: '' }, definition, {
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}

describe('RunState', () => {
  it('moves queued → running → awaiting_approval → running → completed', () => {
    const run = newRun();
    for (const phase of ['running', 'awaiting_approval', 'running', 'completed'] as const)
      run.transition(phase);
    expect(run.phase).toBe('completed');
    run.close();
  });

  it('steps, calls and trace change only through its methods; insertTrace keeps the trace in step order', () => {
    const run = newRun();
    expect([run.nextStep(), run.nextStep()]).toEqual([1, 2]);
    run.countToolCall();
    run.addTrace({ step: 1, kind: 'final', elapsed_ms: 0 }, { step: 3, kind: 'final', elapsed_ms: 0 });
    run.insertTrace({ step: 2, kind: 'takeover', elapsed_ms: 0 });
    run.insertTrace({ step: 9, kind: 'takeover', elapsed_ms: 0 });
    expect({ step: run.step, calls: run.toolCallsExecuted }).toEqual({ step: 2, calls: 1 });
    expect(run.trace.map((entry) => `${entry.step} ${entry.kind}`)).toEqual([
      '1 final',
      '2 takeover',
      '3 final',
      '9 takeover',
    ]);
    run.close();
  });

  it('refuses an illegal transition and stays where it was', () => {
    const run = newRun();
    expect(() => run.transition('completed')).toThrow(IllegalTransition);
    run.transition('running');
    run.transition('failed');
    expect(() => run.transition('running')).toThrow(/cannot go from 'failed' to 'running'/);
    expect(run.phase).toBe('failed');
    run.close();
  });

  it('starts a run held for approval where it stopped, with what it had', () => {
    const definition = defineAgent({ name: 'a' });
    const run = new RunState({ runId: 'run_1', sessionId: '' }, definition, {
      timeoutMs: 60_000,
      prior: {
        usage: { prompt_tokens: 5, completion_tokens: 1 },
        trace: [{ step: 2, kind: 'plan', elapsed_ms: 1 }],
        usedTools: { add: { count: 2, total_ms: 4 } },
        totalMs: 10,
        plan: { revision: 0, steps: [] },
      },
    });
    expect(run).toMatchObject({ phase: 'awaiting_approval', step: 2, toolCallsExecuted: 2 });
    expect(run.plan).toEqual({ revision: 0, steps: [] });
    run.close();
  });

  it('aborts its signal at the deadline, once, with the reason', async () => {
    const run = newRun({ timeoutMs: 5 });
    await new Promise((resolve) => run.signal.addEventListener('abort', resolve));
    run.abort('cancelled');
    expect(run.abortReason).toBe('timeout');
  });

  it('is over budget once the tokens reach it', () => {
    const run = newRun({ budget: 10 });
    run.addUsage({ prompt_tokens: 6, completion_tokens: 3 });
    expect(run.overBudget()).toBe(false);
    run.addUsage({ prompt_tokens: 1, completion_tokens: 0 });
    expect(run.overBudget()).toBe(true);
    run.close();
  });

  it('tells what it may still spend: tokens under its budget, USD under its cost budget at its price', () => {
    const unlimited = newRun();
    expect([unlimited.tokensLeft(), unlimited.costLeftUsd()]).toEqual([undefined, undefined]);
    unlimited.close();
    const definition = defineAgent({ name: 'a', total_token_budget: 100, max_cost_usd: 1 });
    const price = { input_per_mtok: 10_000, output_per_mtok: 10_000 };
    const run = new RunState({ runId: 'run_2', sessionId: '' }, definition, { timeoutMs: 60_000, price });
    run.addUsage({ prompt_tokens: 30, completion_tokens: 10 });
    expect(run.tokensLeft()).toBe(60);
    expect(run.costLeftUsd()).toBeCloseTo(0.6);
    run.addUsage({ prompt_tokens: 100, completion_tokens: 0 });
    expect([run.tokensLeft(), run.costLeftUsd()]).toEqual([0, 0]);
    run.close();
  });
});
