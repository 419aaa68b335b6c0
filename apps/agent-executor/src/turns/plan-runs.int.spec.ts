import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentRunReply, type Route, Routes } from '@app/contracts';
import { ask } from '../testing/executor-app';
import { arithmetic, startWorld, type World } from '../testing/world';

let world: World;

beforeAll(async () => {
  world = await startWorld({
    functions: [
      ...arithmetic,
      {
        name: 'divide',
        params: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        run: ({ a, b }) => {
          if (b === 0) throw new Error('division by zero');
          return { data: { quotient: (a as number) / (b as number) } };
        },
      },
    ],
    agents: [
      { name: 'planner', mode: 'plan', allowed_tools: ['add', 'divide'] },
      { name: 'approver', mode: 'plan', allowed_tools: ['add'], plan_approval: true },
      { name: 'skipper', mode: 'plan', allowed_tools: ['add', 'divide'], step_failure: 'skip' },
      { name: 'replanner', mode: 'plan', allowed_tools: ['add', 'divide'], step_failure: 'replan' },
    ],
  });
});
afterAll(() => world?.close());

const plan = (...steps: [string, Record<string, number>][]) =>
  JSON.stringify({ steps: steps.map(([tool, params]) => ({ description: `use ${tool}`, tool, params })) });
const runView = (runId: string) => world.bus.request(Routes.agentRunGet, { run_id: runId });
const control = (route: Route<{ run_id: string }, AgentRunReply>, runId: string) =>
  world.bus.request(route, { run_id: runId }, { timeoutMs: 10_000 });
const lastSent = () => (world.llm.requests().at(-1)?.body as { messages: { content: string }[] }).messages;

describe('plan mode', () => {
  it('writes a plan, runs its steps in order, stores it on the run and summarises', async () => {
    world.script({ replies: [plan(['add', { a: 1, b: 2 }], ['add', { a: 3, b: 4 }]), 'Three and seven.'] });
    const reply = await ask(world.bus, { message: 'Add twice', agent: 'planner' });
    expect(reply).toMatchObject({ finish_reason: 'final', reply: 'Three and seven.' });
    expect(world.functions.calls.map((c) => c.request.params)).toEqual([
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ]);
    expect(lastSent().at(-1)?.content).toMatch(/sum: 3[\s\S]*sum: 7/);
    const run = await runView(reply.run_id);
    expect(run.plan?.steps.map((s) => [s.tool, s.status])).toEqual([
      ['add', 'completed'],
      ['add', 'completed'],
    ]);
    expect(run.trace.map((s) => s.kind)).toEqual(['plan', 'plan_step', 'plan_step', 'summary']);
  });

  it('holds a plan for approval, then runs it once approved', async () => {
    world.script({ replies: [plan(['add', { a: 2, b: 2 }]), 'Four.'] });
    const paused = await ask(world.bus, { message: 'Add two and two', agent: 'approver' });
    expect(paused.finish_reason).toBe('awaiting_approval');
    expect(paused.reply).toMatch(/waiting for approval[\s\S]*1\. use add/);
    expect(world.functions.calls).toHaveLength(0);
    const waiting = await runView(paused.run_id);
    expect(waiting).toMatchObject({
      status: 'awaiting_approval',
      plan: { steps: [{ tool: 'add', status: 'pending' }] },
    });

    const approved = await control(Routes.agentRunApprove, paused.run_id);
    expect(approved).toMatchObject({ run_id: paused.run_id, finish_reason: 'final', reply: 'Four.' });
    expect(world.functions.calls).toHaveLength(1);
    const done = await runView(paused.run_id);
    expect(done).toMatchObject({ status: 'completed', plan: { steps: [{ status: 'completed' }] } });
    expect(done.trace.map((s) => s.kind)).toEqual(['plan', 'approval', 'plan_step', 'summary']);
    // nobody named the decider (no gateway, no key): on record all the same, by nobody
    expect(done.decisions).toEqual([expect.objectContaining({ kind: 'plan', action: 'approve', by: '' })]);
    expect(done.decisions?.[0]).not.toHaveProperty('key_id');
    const session = await world.bus.request(Routes.agentSessionGet, { session_id: paused.session_id });
    expect(session.messages.map((m) => m.content)).toEqual(['Add two and two', 'Four.']);
    await expect(control(Routes.agentRunApprove, paused.run_id)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('runs nothing when a plan is rejected', async () => {
    world.script({ replies: [plan(['add', { a: 2, b: 2 }])] });
    const paused = await ask(world.bus, { message: 'Add', agent: 'approver' });
    const rejected = await control(Routes.agentRunReject, paused.run_id);
    expect(rejected).toMatchObject({ finish_reason: 'rejected' });
    expect(world.functions.calls).toHaveLength(0);
    expect(await runView(paused.run_id)).toMatchObject({
      status: 'cancelled',
      plan: { steps: [{ status: 'skipped' }] },
    });
    await expect(control(Routes.agentRunApprove, paused.run_id)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('skips past a failed step under the skip policy', async () => {
    world.script({
      replies: [plan(['divide', { a: 1, b: 0 }], ['add', { a: 1, b: 1 }]), 'Two; the division failed.'],
    });
    const reply = await ask(world.bus, { message: 'Divide then add', agent: 'skipper' });
    expect(reply.finish_reason).toBe('final');
    const run = await runView(reply.run_id);
    expect(run.plan?.steps.map((s) => s.status)).toEqual(['failed', 'completed']);
    expect(run.plan?.steps[0].error).toBe('division by zero');
  });

  it('aborts the rest of the plan after a failed step under the abort policy, still answering', async () => {
    world.script({
      replies: [plan(['divide', { a: 1, b: 0 }], ['add', { a: 1, b: 1 }]), 'The division failed.'],
    });
    const reply = await ask(world.bus, { message: 'Divide then add', agent: 'planner' });
    expect(reply).toMatchObject({ finish_reason: 'error', reply: 'The division failed.' });
    expect(world.functions.calls.map((c) => c.name)).toEqual(['divide']);
    const run = await runView(reply.run_id);
    expect(run.plan?.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
    expect(run.error).toMatch(/step 1 \(divide\) failed: division by zero/);
  });

  it('revises the remaining steps with one model call under the replan policy', async () => {
    world.script({
      replies: [
        plan(['divide', { a: 1, b: 0 }], ['add', { a: 1, b: 1 }]),
        plan(['divide', { a: 1, b: 2 }]),
        'Half.',
      ],
    });
    const reply = await ask(world.bus, { message: 'Divide one', agent: 'replanner' });
    expect(reply).toMatchObject({ finish_reason: 'final', reply: 'Half.' });
    expect(world.llm.requests()[1].body).toMatchObject({
      messages: expect.arrayContaining([
        expect.objectContaining({
          content: expect.stringContaining('Step 1 (divide) failed: division by zero'),
        }),
      ]),
    });
    const run = await runView(reply.run_id);
    expect(run.plan).toMatchObject({ revision: 1 });
    expect(run.plan?.steps.map((s) => [s.tool, s.status, s.params])).toEqual([
      ['divide', 'failed', { a: 1, b: 0 }],
      ['divide', 'completed', { a: 1, b: 2 }],
    ]);
    expect(run.trace.map((s) => s.kind)).toEqual(['plan', 'plan_step', 'replan', 'plan_step', 'summary']);
  });

  it('repairs a plan that names a function the agent may not use, and gives up after a second bad plan', async () => {
    world.script({ replies: [plan(['multiply', { a: 1, b: 1 }]), 'no JSON here'] });
    const reply = await ask(world.bus, { message: 'Multiply', agent: 'planner' });
    expect(reply.finish_reason).toBe('parse_error');
    expect(lastSent().at(-1)?.content).toMatch(/'multiply', which is not an available function/);
    expect(world.functions.calls).toHaveLength(0);
  });
});
