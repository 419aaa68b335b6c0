import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, HookContext, HookEvent, RunView } from '@app/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@app/testing';
import { delay } from '../../apps/agent-executor/src/testing/test-functions';
import { add, type ChatStack, post, startChatStack } from '../chat/chat-stack';

const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;
const TURN_EVENTS: HookEvent[] = [
  'on_turn_start',
  'before_llm',
  'after_llm',
  'before_tool',
  'after_tool',
  'on_turn_end',
];

/** What a hook function declares: the context, one object. */
const hookParams = { context: { type: 'object' as const } };

/** Denies a = 13, rewrites a = 1 to 10 + 20, allows the rest. */
function gate({ context }: Record<string, unknown>) {
  const args = (context as HookContext).tool_call?.arguments ?? {};
  if (args.a === 13) return { data: { decision: 'deny', reason: 'thirteen is unlucky' } };
  if (args.a === 1) return { data: { decision: 'rewrite', arguments: { a: 10, b: 20 } } };
  return { data: { decision: 'allow' } };
}

describe('hooks declared in agent profiles (gateway and executor processes, real NATS, scripted model)', () => {
  let stack: ChatStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const webhook = (path: string) => ({ url: `${receiver.url}${path}`, allow_private_network: true });
    stack = await startChatStack({
      functions: [
        add,
        { name: 'audit_hook', params: hookParams, run: () => ({ data: {} }) },
        { name: 'gate_hook', params: hookParams, run: gate },
        { name: 'slow_hook', params: hookParams, run: async () => (await delay(1_500), { data: {} }) },
      ],
      agents: () => [
        {
          name: 'observed',
          allowed_tools: ['add'],
          hooks: [
            { event: 'before_tool', function: 'gate_hook' },
            ...TURN_EVENTS.flatMap((event) => [
              { event, function: 'audit_hook' },
              { event, ...webhook('/observed') },
            ]),
          ],
        },
        {
          name: 'planned',
          mode: 'plan',
          allowed_tools: ['add'],
          hooks: [
            { event: 'on_plan_step_complete', function: 'audit_hook' },
            { event: 'on_plan_step_complete', ...webhook('/planned') },
          ],
        },
        {
          name: 'open_slow',
          allowed_tools: ['add'],
          hooks: [{ event: 'before_tool', function: 'slow_hook', timeout_ms: 200 }],
        },
        {
          name: 'closed_slow',
          allowed_tools: ['add'],
          hooks: [{ event: 'before_tool', function: 'slow_hook', timeout_ms: 200, policy: 'fail_closed' }],
        },
        {
          name: 'closed_start',
          hooks: [{ event: 'on_turn_start', function: 'slow_hook', timeout_ms: 200, policy: 'fail_closed' }],
        },
        {
          name: 'guarded',
          // a name, so only the call-time check (what it resolves to) can refuse it
          hooks: [{ event: 'on_turn_start', url: `http://localhost:${receiver.port}/guarded` }],
        },
      ],
      env: { HTTP_ALLOWED_DOMAINS: '127.0.0.1,localhost' },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const chat = async (agent: string, message: string, replies: string[]) => {
    stack.llm.setScript({ replies });
    stack.llm.clearRequests();
    const res = await post(stack.base, '/api/v1/chat', { agent, message });
    expect(res.status).toBe(200);
    return (await res.json()) as AgentRunReply;
  };
  const runOf = async (id: string) =>
    (await (await fetch(`${stack.base}/api/v1/runs/${id}`)).json()) as RunView;
  const hookCalls = (name: string, runId: string) =>
    stack.functions.calls.filter((c) => c.name === name && contextOf(c.request.params).run_id === runId);
  const webhooks = (path: string, runId: string) =>
    receiver.received.filter((r) => r.path === path && (r.body as HookContext).run_id === runId);
  const contextOf = (params: Record<string, unknown>) => params.context as HookContext;
  const lastModelInput = () => JSON.stringify(stack.llm.requests().at(-1)?.body);

  it('tells each event to its function and its webhook, with the run and what the event concerns', async () => {
    const reply = await chat('observed', 'Two plus three?', [addCall(2, 3), 'Five.']);
    expect(reply.reply).toBe('Five.');
    const expected = [
      'on_turn_start',
      'before_llm',
      'after_llm',
      'before_tool',
      'after_tool',
      'before_llm',
      'after_llm',
      'on_turn_end',
    ];
    const byFunction = hookCalls('audit_hook', reply.run_id).map((c) => contextOf(c.request.params));
    const byWebhook = webhooks('/observed', reply.run_id).map((r) => r.body as HookContext);
    for (const contexts of [byFunction, byWebhook]) {
      expect(contexts.map((c) => c.event)).toEqual(expected);
      for (const context of contexts)
        expect(context).toMatchObject({
          run_id: reply.run_id,
          session_id: reply.session_id,
          agent: 'observed',
        });
      const of = (event: HookEvent) => contexts.find((c) => c.event === event) as HookContext;
      expect(of('before_llm').model).toMatchObject({ messages: expect.any(Number) });
      expect(of('after_llm').usage).toMatchObject({ prompt_tokens: expect.any(Number) });
      expect(of('before_tool')).toMatchObject({
        turn_index: 1,
        tool_call: { name: 'add', arguments: { a: 2, b: 3 } },
      });
      expect(of('after_tool').tool_result).toMatchObject({ status: 'success' });
      expect(of('on_turn_end')).toMatchObject({ finish_reason: 'final', usage: reply.usage });
    }
    const [call] = hookCalls('audit_hook', reply.run_id);
    expect(call.request.caller).toMatchObject({ kind: 'hook', agent: 'observed', run_id: reply.run_id });
    const hooks = (await runOf(reply.run_id)).trace.filter((s) => s.kind === 'hook');
    expect(hooks).toHaveLength(expected.length * 2 + 1);
    expect(hooks.every((s) => s.hook?.outcome === 'ok')).toBe(true);
    expect(hooks.map((s) => s.hook?.target)).toContain(`${receiver.url}/observed`);
  });

  it('tells a plan step that completed', async () => {
    const plan = '{"steps":[{"description":"add","tool":"add","params":{"a":4,"b":4}}]}';
    const reply = await chat('planned', 'Four plus four?', [plan, 'Eight.']);
    expect(reply.reply).toBe('Eight.');
    const [byFunction] = hookCalls('audit_hook', reply.run_id).map((c) => contextOf(c.request.params));
    const [byWebhook] = webhooks('/planned', reply.run_id).map((r) => r.body);
    for (const context of [byFunction, byWebhook])
      expect(context).toMatchObject({
        event: 'on_plan_step_complete',
        plan_step_index: 0,
        plan_step: { index: 0, tool: 'add', status: 'completed' },
      });
  });

  it('a denying before_tool hook: the call is not made and the model reads the reason', async () => {
    const reply = await chat('observed', 'Thirteen plus one?', [addCall(13, 1), 'I may not.']);
    expect(reply.function_calls[0]).toEqual({
      name: 'add',
      status: 'error',
      result: { code: 'forbidden', message: 'thirteen is unlucky' },
    });
    expect(stack.functions.calls.some((c) => c.name === 'add' && c.request.params.a === 13)).toBe(false);
    expect(lastModelInput()).toContain('thirteen is unlucky');
  });

  it('a rewriting before_tool hook: the function receives the new arguments', async () => {
    const reply = await chat('observed', 'One plus two?', [addCall(1, 2), 'Thirty.']);
    expect(reply.function_calls[0]).toMatchObject({ status: 'success', result: { data: { sum: 30 } } });
    const adds = stack.functions.calls.filter(
      (c) => c.name === 'add' && c.request.caller?.run_id === reply.run_id,
    );
    expect(adds.map((c) => c.request.params)).toEqual([{ a: 10, b: 20 }]);
  });

  it('fail_open: a hook that times out is recorded and the run goes on', async () => {
    const reply = await chat('open_slow', 'Two plus two?', [addCall(2, 2), 'Four.']);
    expect(reply.function_calls[0]).toMatchObject({ status: 'success', result: { data: { sum: 4 } } });
    const [step] = (await runOf(reply.run_id)).trace.filter((s) => s.kind === 'hook');
    expect(step).toMatchObject({
      hook: { event: 'before_tool', target: 'function:slow_hook', outcome: 'timeout', policy: 'fail_open' },
      error: 'no answer within 200 ms',
    });
  });

  it('fail_closed: a before_tool hook that times out denies the call', async () => {
    const reply = await chat('closed_slow', 'Three plus three?', [addCall(3, 3), 'Refused.']);
    expect(reply.function_calls[0]).toMatchObject({ status: 'error', result: { code: 'forbidden' } });
    expect(lastModelInput()).toContain('a before_tool hook failed (no answer within 200 ms)');
  });

  it('fail_closed: any other hook that times out ends the run with hook_failed', async () => {
    const reply = await chat('closed_start', 'Hello?', ['Hi.']);
    expect(reply.finish_reason).toBe('error');
    expect(reply.reply).toContain('hook_failed: the on_turn_start hook function:slow_hook failed');
    expect(stack.llm.requests()).toHaveLength(0);
    expect((await runOf(reply.run_id)).status).toBe('failed');
  });

  it('a webhook to a forbidden address is refused: at creation, and at the call for a name', async () => {
    const created = await post(stack.base, '/api/v1/agents', {
      name: 'sneaky',
      hooks: [{ event: 'after_tool', url: `${receiver.url}/sneaky` }],
    });
    expect(created.status).toBe(400);
    expect(await created.text()).toMatch(/hooks\.0\.url.*loopback/);
    const reply = await chat('guarded', 'Hello there?', ['Hi.']);
    expect(reply.reply).toBe('Hi.');
    const [step] = (await runOf(reply.run_id)).trace.filter((s) => s.kind === 'hook');
    expect(step).toMatchObject({ hook: { outcome: 'error', policy: 'fail_open' } });
    expect(step.error).toMatch(/webhook hook blocked: 'localhost' resolves to .*loopback/);
    expect(receiver.received.filter((r) => r.path === '/guarded')).toHaveLength(0);
  });
});
