import { describe, expect, it } from 'vitest';
import { HookFailed } from './errors';
import type { Hooks } from './ports';
import { action, finalAnswer, harness } from './testing/fixtures.fixture';

function recordingHooks(calls: string[], beforeTool?: Hooks['beforeTool']): Hooks {
  return {
    onTurnStart: () => void calls.push('onTurnStart'),
    beforeLlm: () => void calls.push('beforeLlm'),
    afterLlm: () => void calls.push('afterLlm'),
    beforeTool: (run, call) => {
      calls.push(`beforeTool ${call.name}`);
      return beforeTool?.(run, call);
    },
    afterTool: (_run, outcome) => void calls.push(`afterTool ${outcome.call.name} ${outcome.status}`),
    onPlanStepComplete: (_run, step) => void calls.push(`onPlanStepComplete ${step.index} ${step.status}`),
    onTurnEnd: (_run, outcome) => void calls.push(`onTurnEnd ${outcome.finishReason}`),
  };
}

describe('hooks', () => {
  it('are called in order around each model call and each tool call', async () => {
    const calls: string[] = [];
    const { agent } = harness(
      [action('add', { a: 1, b: 2 }), finalAnswer('3')],
      {},
      { hooks: recordingHooks(calls) },
    );
    await agent.run('1 + 2?');
    expect(calls).toEqual([
      'onTurnStart',
      'beforeLlm',
      'afterLlm',
      'beforeTool add',
      'afterTool add success',
      'beforeLlm',
      'afterLlm',
      'onTurnEnd final',
    ]);
  });

  it('in plan mode, each step is complete (and told) after its tool call, before the next step', async () => {
    const calls: string[] = [];
    const plan = JSON.stringify({
      steps: [
        { description: 'add', tool: 'add', params: { a: 1, b: 2 } },
        { description: 'multiply', tool: 'multiply', params: { a: 3, b: 4 } },
      ],
    });
    const { agent } = harness(
      [plan, 'Three and twelve.'],
      { mode: 'plan' },
      { hooks: recordingHooks(calls) },
    );
    await agent.run('compute');
    expect(calls).toEqual([
      'onTurnStart',
      'beforeLlm',
      'afterLlm',
      'beforeTool add',
      'afterTool add success',
      'onPlanStepComplete 0 completed',
      'beforeTool multiply',
      'afterTool multiply success',
      'onPlanStepComplete 1 completed',
      'beforeLlm',
      'afterLlm',
      'onTurnEnd final',
    ]);
  });

  it('deny: the call is not made and the model reads the reason as its error', async () => {
    const calls: string[] = [];
    const hooks = recordingHooks(calls, () => ({ action: 'deny', reason: 'not on Sundays' }));
    const { agent, functions, model } = harness(
      [action('add', { a: 1, b: 2 }), finalAnswer('no')],
      {},
      { hooks },
    );
    const result = await agent.run('1 + 2?');
    expect(functions.calls).toHaveLength(0);
    expect(result.function_calls[0]).toEqual({
      name: 'add',
      status: 'error',
      result: { code: 'forbidden', message: 'not on Sundays' },
    });
    expect(model.requests[1].messages.at(-1)?.content).toContain('not on Sundays');
  });

  it('rewrite: the call runs with the new arguments, validated again', async () => {
    const rewrite: Hooks['beforeTool'] = (_run, call) =>
      call.params.a === 1
        ? { action: 'rewrite', args: { a: 10, b: 20 } }
        : { action: 'rewrite', args: { a: 'x' } };
    const { agent, functions } = harness(
      [action('add', { a: 1, b: 2 }), action('add', { a: 2, b: 2 }), finalAnswer('30')],
      {},
      { hooks: recordingHooks([], rewrite) },
    );
    const result = await agent.run('1 + 2?');
    expect(functions.calls.map((call) => call.args)).toEqual([{ a: 10, b: 20 }]);
    expect(result.function_calls[1]).toMatchObject({ status: 'error', result: { code: 'invalid_params' } });
  });

  it.each<[string, Hooks]>([
    ['onTurnStart', { onTurnStart: () => Promise.reject(new HookFailed('audit is down')) }],
    ['beforeLlm', { beforeLlm: () => Promise.reject(new HookFailed('audit is down')) }],
    ['afterLlm', { afterLlm: () => Promise.reject(new HookFailed('audit is down')) }],
    [
      'beforeTool',
      {
        beforeTool: () => {
          throw new HookFailed('audit is down');
        },
      },
    ],
    ['afterTool', { afterTool: () => Promise.reject(new HookFailed('audit is down')) }],
  ])('a HookFailed from %s ends the run with error, naming it (not as a model failure)', async (_, hooks) => {
    const { agent } = harness([action('add', { a: 1, b: 2 }), finalAnswer('3')], {}, { hooks });
    const result = await agent.run('1 + 2?');
    expect(result.finish_reason).toBe('error');
    expect(result.reply).toContain('hook_failed: audit is down');
    expect(result.trace.some((step) => step.kind === 'llm_error')).toBe(false);
  });
});
