import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent-definition';
import { PromptSet } from '../prompts/prompt-set';
import type { RunContext } from '../run-context';
import { RunState } from '../run-state';
import { action, finalAnswer, harness, arithmetic } from '../testing/fixtures.fixture';
import { ScriptedModelClient } from '../testing/scripted-model';
import { type ApprovalDecision, argumentsHash, canonicalJson } from './approval-gate';
import { toolStep } from './tool-step';

const ADD = { name: 'add', params: { a: 2, b: 3 } };
const MULTIPLY = { name: 'multiply', params: { a: 2, b: 3 } };

function stepContext(decisions: Record<string, ApprovalDecision> = {}) {
  const definition = defineAgent({ name: 'gated', allowed_tools: ['*'], needs_approval: ['add'] });
  const run = new RunState({ runId: 'run_1', sessionId: '' }, definition, { timeoutMs: 10_000 });
  run.nextStep();
  const functions = arithmetic();
  const ctx: RunContext = {
    run,
    model: new ScriptedModelClient([]),
    functions,
    prompts: new PromptSet(definition),
    approvals: new Map(Object.entries(decisions)),
  };
  return { ctx, functions };
}

describe('approval gate', () => {
  it('holds a reply whose calls need approval: none of its calls is sent', async () => {
    const { ctx, functions } = stepContext();
    const batch = await toolStep(ctx, [MULTIPLY, ADD], { hold: true });
    expect(batch.outcomes).toEqual([]);
    expect(batch.held).toEqual([
      {
        callId: 'run_1:1:1',
        step: 1,
        index: 1,
        name: 'add',
        args: { a: 2, b: 3 },
        hash: argumentsHash({ a: 2, b: 3 }),
      },
    ]);
    expect(functions.calls).toHaveLength(0);
  });

  it('holds nothing where the caller does not ask it to', async () => {
    const { ctx, functions } = stepContext();
    const batch = await toolStep(ctx, [ADD]);
    expect(batch.held).toBeUndefined();
    expect(functions.calls).toHaveLength(1);
  });

  it('approved: the call runs; edited: with the new arguments, checked again', async () => {
    const approved = stepContext({ 'run_1:1:0': { action: 'approve' } });
    const [ran] = (await toolStep(approved.ctx, [ADD], { hold: true })).outcomes;
    expect(ran).toMatchObject({ status: 'success', result: { data: { sum: 5 } } });

    const shown = argumentsHash(ADD.params);
    const edited = stepContext({ 'run_1:1:0': { action: 'approve', args: { a: 10, b: 1 }, hash: shown } });
    const [changed] = (await toolStep(edited.ctx, [ADD], { hold: true })).outcomes;
    expect(changed).toMatchObject({ args: { a: 10, b: 1 }, result: { data: { sum: 11 } } });

    const bad = stepContext({ 'run_1:1:0': { action: 'approve', args: { a: 'ten' } } });
    const [refused] = (await toolStep(bad.ctx, [ADD], { hold: true })).outcomes;
    expect(refused).toMatchObject({ status: 'error', executed: false, error: { code: 'invalid_params' } });
    expect(bad.functions.calls).toHaveLength(0);
  });

  it('rejected: the model reads the reason; responded: it reads the given result; neither runs', async () => {
    const { ctx, functions } = stepContext({
      'run_1:1:0': { action: 'reject', reason: 'not on a Friday' },
      'run_1:1:1': { action: 'respond', result: { sum: 99 } },
    });
    const { outcomes } = await toolStep(ctx, [ADD, { ...ADD, params: { a: 1, b: 1 } }], { hold: true });
    expect(outcomes[0]).toMatchObject({ status: 'error', executed: false, error: { code: 'forbidden' } });
    expect(outcomes[0].observation).toContain('not on a Friday');
    expect(outcomes[1]).toMatchObject({ status: 'success', executed: false, result: { data: { sum: 99 } } });
    expect(functions.calls).toHaveLength(0);
  });

  it('a decision taken on other arguments does not apply: the call is held again', async () => {
    const { ctx, functions } = stepContext({
      'run_1:1:0': { action: 'approve', hash: argumentsHash({ a: 9, b: 9 }) },
    });
    const batch = await toolStep(ctx, [ADD], { hold: true });
    expect(batch.held?.map((call) => call.hash)).toEqual([argumentsHash(ADD.params)]);
    expect(functions.calls).toHaveLength(0);
  });

  it('a ReAct run ends awaiting approval, naming the held call', async () => {
    const { agent, functions } = harness([action('add', { a: 1, b: 2 }), finalAnswer('3')], {
      needs_approval: ['*'],
    });
    const result = await agent.run('1 + 2?');
    expect(result).toMatchObject({ finish_reason: 'awaiting_approval', phase: 'awaiting_approval' });
    expect(result.reply).toContain('add');
    expect(functions.calls).toHaveLength(0);
  });

  it('hashes canonical JSON: the order of keys does not matter, values do', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
    expect(argumentsHash({ a: 1, b: 2 })).toBe(argumentsHash({ b: 2, a: 1 }));
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: 2 }));
    expect(argumentsHash({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
