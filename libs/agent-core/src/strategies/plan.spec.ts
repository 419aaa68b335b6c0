import { describe, expect, it } from 'vitest';
import type { PlanStep } from '@app/contracts';
import { type AgentDefinition, defineAgent } from '../agent-definition';
import { PromptSet } from '../prompts/prompt-set';
import type { RunContext } from '../run-context';
import { RunState } from '../run-state';
import { ScriptedModelClient } from '../testing/scripted-model';
import type { ApprovalDecision } from '../tools/approval-gate';
import { startPlan } from './plan';
import { PlanError } from '../errors';
import { TaskAgent } from '../task-agent';
import { arithmetic, harness, numberFunction } from '../testing/fixtures.fixture';
import type { InMemoryFunctions } from '../testing/in-memory-functions';

const planOf = (...steps: { tool: string; params?: Record<string, unknown> }[]) =>
  JSON.stringify({ steps: steps.map((step) => ({ description: step.tool, params: {}, ...step })) });
const add = { tool: 'add', params: { a: 1, b: 2 } };
const fail = { tool: 'fail', params: { a: 1, b: 1 } };

function withFailing(): InMemoryFunctions {
  return arithmetic().add(numberFunction('fail'), () => {
    throw new Error('boom');
  });
}

function planAgent(replies: string[], definition: Partial<AgentDefinition> = {}) {
  return harness(replies, { mode: 'plan', ...definition }, { functions: withFailing() });
}

const statuses = (steps: PlanStep[] | undefined) => steps?.map((step) => step.status);

describe('plan-then-execute', () => {
  it('writes a plan, runs its steps in order and summarises', async () => {
    const { agent, model } = planAgent([
      planOf(add, { tool: 'multiply', params: { a: 2, b: 3 } }),
      'Sum 3, product 6.',
    ]);
    const result = await agent.run('compute');
    expect(result).toMatchObject({ finish_reason: 'final', reply: 'Sum 3, product 6.' });
    expect(statuses(result.plan?.steps)).toEqual(['completed', 'completed']);
    expect(result.trace.map((step) => step.kind)).toEqual(['plan', 'plan_step', 'plan_step', 'summary']);
    expect(model.requests[1].messages.at(-1)?.content).toContain('The plan has been carried out');
  });

  it('repairs an unreadable plan once, then gives up with parse_error', async () => {
    const { agent } = planAgent(['no plan', 'still none']);
    expect((await agent.run('compute')).finish_reason).toBe('parse_error');
  });

  it('abort: a failed step skips the rest and the summary says why', async () => {
    const { agent } = planAgent([planOf(fail, add), 'It failed.'], { step_failure: 'abort' });
    const result = await agent.run('compute');
    expect(result).toMatchObject({ finish_reason: 'error', reply: 'It failed.' });
    expect(statuses(result.plan?.steps)).toEqual(['failed', 'skipped']);
    expect(result.failure).toBeInstanceOf(PlanError);
    expect(result.failure?.message).toBe('step 1 (fail) failed: boom');
  });

  it('skip: a failed step is passed over', async () => {
    const { agent } = planAgent([planOf(fail, add), 'Partly done.'], { step_failure: 'skip' });
    const result = await agent.run('compute');
    expect(result.finish_reason).toBe('final');
    expect(statuses(result.plan?.steps)).toEqual(['failed', 'completed']);
  });

  it('replan: the model revises the remaining steps after a failure', async () => {
    const { agent, model } = planAgent(
      [planOf(fail, add), planOf({ tool: 'multiply', params: { a: 2, b: 2 } }), 'Done.'],
      {
        step_failure: 'replan',
      },
    );
    const result = await agent.run('compute');
    expect(result.finish_reason).toBe('final');
    expect(result.plan).toMatchObject({ revision: 1 });
    expect(result.plan?.steps.map((step) => [step.tool, step.status])).toEqual([
      ['fail', 'failed'],
      ['multiply', 'completed'],
    ]);
    expect(model.requests[1].messages.at(-1)?.content).toMatch(/^Step 1 \(fail\) failed: boom\./);
  });

  it('holds the plan for approval when the definition asks', async () => {
    const { agent, functions } = planAgent([planOf(add)], { plan_approval: true });
    const result = await agent.run('compute');
    expect(result).toMatchObject({ finish_reason: 'awaiting_approval', phase: 'awaiting_approval' });
    expect(result.reply).toBe('The plan is waiting for approval:\n1. add (add {"a":1,"b":2})');
    expect(functions.calls).toHaveLength(0);
  });

  it('approve: carries out the held plan in the same run, its usage and trace going on', async () => {
    const { agent, functions } = planAgent([planOf(add), 'Three.'], { plan_approval: true });
    const held = await agent.run('compute');
    const done = await agent.approve(held);
    expect(done).toMatchObject({
      run_id: held.run_id,
      finish_reason: 'final',
      reply: 'Three.',
      phase: 'completed',
    });
    expect(functions.calls).toHaveLength(1);
    expect(done.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10 });
    expect(done.trace.map((step) => step.kind)).toEqual(['plan', 'plan_step', 'summary']);
    expect(() => agent.approve(done)).toThrow(/not waiting for approval \(completed\)/);
  });

  it('reject: the held plan ends rejected, none of its steps run, the model not called again', async () => {
    const { agent, functions, model } = planAgent([planOf(add), 'never'], { plan_approval: true });
    const held = await agent.run('compute');
    const rejected = await agent.reject(held, 'too risky');
    expect(rejected).toMatchObject({
      run_id: held.run_id,
      finish_reason: 'rejected',
      phase: 'cancelled',
      reply: 'The plan was rejected; nothing was executed.',
      usage: held.usage,
    });
    expect(rejected.plan?.steps.map((step) => step.status)).toEqual(['skipped']);
    expect(rejected.trace).toEqual(held.trace);
    expect(functions.calls).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
    await expect(agent.reject(rejected)).rejects.toThrow(/not waiting for approval \(cancelled\)/);
  });

  it('a step calling a needs_approval function holds the run there: the steps before it ran, it and the rest wait', async () => {
    const multiply = { tool: 'multiply', params: { a: 2, b: 3 } };
    const { agent, functions } = planAgent([planOf(add, multiply, add), 'never'], {
      needs_approval: ['multiply'],
    });
    const result = await agent.run('compute');
    expect(result).toMatchObject({ finish_reason: 'awaiting_approval', phase: 'awaiting_approval' });
    expect(result.reply).toMatch(/^Waiting for approval of multiply \(run_[^)]+\)\.$/);
    expect(statuses(result.plan?.steps)).toEqual(['completed', 'pending', 'pending']);
    expect(functions.calls.map((call) => call.name)).toEqual(['add']);
  });

  it('a held plan step runs once decided, and the plan goes on from it', async () => {
    const multiply = { tool: 'multiply', params: { a: 2, b: 3 } };
    const attempt = async (decisions: Record<string, ApprovalDecision>) => {
      const definition = defineAgent({
        name: 'gated',
        mode: 'plan',
        allowed_tools: ['*'],
        needs_approval: ['multiply'],
      });
      const functions = arithmetic();
      const ctx: RunContext = {
        run: new RunState({ runId: 'run_1', sessionId: '' }, definition, { timeoutMs: 10_000 }),
        model: new ScriptedModelClient([planOf(add, multiply), 'Sum 3, product 6.']),
        functions,
        prompts: new PromptSet(definition),
        approvals: new Map(Object.entries(decisions)),
      };
      return { outcome: await startPlan(ctx, [{ role: 'user', content: 'compute' }]), functions };
    };
    const held = await attempt({});
    const [call] = held.outcome.heldCalls ?? [];
    expect(call).toMatchObject({ name: 'multiply', args: { a: 2, b: 3 } });

    const approved = await attempt({ [call.callId]: { action: 'approve', hash: call.hash } });
    expect(approved.outcome).toMatchObject({ finishReason: 'final', reply: 'Sum 3, product 6.' });
    expect(approved.functions.calls.map((c) => c.name)).toEqual(['add', 'multiply']);

    const rejected = await attempt({ [call.callId]: { action: 'reject', reason: 'not today' } });
    expect(rejected.functions.calls.map((c) => c.name)).toEqual(['add']);
  });

  it('a plan the caller wrote is not held: the caller chose each call', async () => {
    const { agent, functions } = harness(
      ['Three.'],
      { needs_approval: ['add'], plan_approval: true },
      { functions: withFailing() },
    );
    const tasks = new TaskAgent(agent.runtime, agent.definition);
    const result = await tasks.executePlan([{ description: 'sum', ...add }]);
    expect(result).toMatchObject({ finish_reason: 'final', reply: 'Three.' });
    expect(functions.calls).toHaveLength(1);
  });

  it('TaskAgent.executePlan carries out the caller’s plan without asking the model for one', async () => {
    const { agent, model } = harness(['Three.'], {}, { functions: withFailing() });
    const tasks = new TaskAgent(agent.runtime, agent.definition);
    const result = await tasks.executePlan([{ description: 'sum', ...add }], 'What is 1 + 2?');
    expect(result).toMatchObject({ finish_reason: 'final', reply: 'Three.' });
    expect(model.requests).toHaveLength(1);
  });

  it('TaskAgent.executePlan refuses a bad plan whole before anything runs, naming each bad step', async () => {
    const { agent, functions, model } = harness(
      ['never'],
      { allowed_tools: ['add'] },
      { functions: withFailing() },
    );
    const tasks = new TaskAgent(agent.runtime, agent.definition);
    const refused = tasks.executePlan([
      { description: 'sum', ...add },
      { description: 'fail', tool: 'fail', params: {} },
      { description: 'half a sum', ...add, params: { a: 1 } },
    ]);
    await expect(refused).rejects.toThrow(PlanError);
    await expect(refused).rejects.toMatchObject({
      code: 'plan_invalid',
      message: expect.stringContaining(
        "steps[1].tool: 'fail' is not a function agent 'test' may call; steps[2].parameters.b: is required",
      ),
    });
    expect(functions.calls).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });
});
