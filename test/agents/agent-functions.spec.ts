// Agents called as functions (`agent_<name>`): by another agent, by an API client; the chain of
// agents is refused when it cycles or grows too deep, the parent's allow-list applies, and the
// child gets no more than the parent has: its scopes, its remaining tokens, its remaining time.
// Gateway and executor processes, real NATS, SQLite and PostgreSQL, the scripted model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, FnExecReplyView, FunctionList, RunView } from '@app/contracts';
import { expectEventually, MIGRATED_DATABASES, type ReceivedSpan, startOtlpReceiver } from '@app/testing';
import { add, type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_agent_functions_admin_key_9d3e51c7a2b8';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const callHelper = (message: string) => `<call name="agent_helper"><p>message: ${message}</p></call>`;

interface AgentCallData {
  reply: string;
  run_id: string;
  session_id: string;
  finish_reason: string;
}

const AGENTS = [
  { name: 'lead', description: 'Leads.', allowed_tools: ['agent_helper'], expose_as_function: true },
  {
    name: 'helper',
    description: 'Answers questions.',
    allowed_tools: ['agent_lead', 'agent_deep', 'add', 'whoami'],
    expose_as_function: true,
  },
  { name: 'deep', description: 'Too deep to reach.', allowed_tools: [], expose_as_function: true },
  { name: 'outsider', allowed_tools: ['add'] },
  { name: 'thrifty', allowed_tools: ['agent_helper'], total_token_budget: 150 },
  { name: 'hasty', allowed_tools: ['agent_helper'], single_call_timeout: 1_500 },
];

describe.each(MIGRATED_DATABASES)('agents as functions on $name', (database) => {
  let stack: ChatStack;
  let drop: (() => Promise<void>) | undefined;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

  const chat = async (agent: string, message: string, key = ADMIN_KEY): Promise<AgentRunReply> => {
    const res = await post(stack.base, '/api/v1/chat', { agent, message }, bearer(key));
    expect(res.status).toBe(200);
    return (await res.json()) as AgentRunReply;
  };
  const runOf = async (id: string): Promise<RunView> => {
    const res = await fetch(`${stack.base}/api/v1/runs/${id}`, { headers: bearer(ADMIN_KEY) });
    expect(res.status).toBe(200);
    return (await res.json()) as RunView;
  };
  const childOf = (reply: AgentRunReply): AgentCallData => {
    const call = reply.function_calls.find((c) => c.name === 'agent_helper');
    expect(call).toMatchObject({ status: 'success' });
    return (call!.result as { data: AgentCallData }).data;
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const created = await database.create();
    drop = created.drop;
    stack = await startChatStack({
      functions: [add, { name: 'whoami', run: () => ({ data: { ok: true } }) }],
      agents: () => AGENTS,
      env: {
        DATABASE_URL: created.url,
        AUTH_ENABLED: 'true',
        AC_ADMIN_KEY: ADMIN_KEY,
        AGENT_CALL_MAX_DEPTH: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await drop?.();
    await receiver?.close();
  });

  it('lists an exposed agent among the functions, served by the agents provider', async () => {
    const res = await fetch(`${stack.base}/api/v1/functions`, { headers: bearer(ADMIN_KEY) });
    const { functions } = (await res.json()) as FunctionList;
    expect(functions.find((f) => f.name === 'agent_helper')).toMatchObject({
      description: 'Answers questions.',
      provider: 'agents',
      parameters: { required: ['message'] },
    });
    expect(functions.some((f) => f.name === 'agent_outsider')).toBe(false);
  });

  it("gives the child's reply back as the tool result, the runs linked both ways", async () => {
    stack.llm.setScript({
      rules: [
        { match: 'child-answer-42', reply: 'Lead heard: child-answer-42' },
        { match: 'child-question', reply: 'child-answer-42' },
        { match: 'go-ab', reply: callHelper('child-question') },
      ],
    });
    const parent = await chat('lead', 'go-ab');
    expect(parent).toMatchObject({ reply: 'Lead heard: child-answer-42', finish_reason: 'final' });
    const child = childOf(parent);
    expect(child).toMatchObject({ reply: 'child-answer-42', finish_reason: 'final' });

    const childRun = await runOf(child.run_id);
    expect(childRun).toMatchObject({
      agent: 'helper',
      parent_run_id: parent.run_id,
      reply: 'child-answer-42',
    });
    const parentRun = await runOf(parent.run_id);
    expect(parentRun.parent_run_id).toBeNull();
    expect(JSON.stringify(parentRun.trace)).toContain(child.run_id);

    // one OpenTelemetry trace: the child's model call under the parent's call of agent_helper
    expect(parentRun.trace_id).toBeTruthy();
    expect(childRun.trace_id).toBe(parentRun.trace_id);
    const spans = await expectEventually(() => {
      const mine = receiver.spans().filter((s) => s.traceId === parentRun.trace_id);
      expect(mine.filter((s) => s.name === 'chat scripted-model')).toHaveLength(3);
      return mine;
    });
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (span: ReceivedSpan): string[] => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      return parent ? [parent.name, ...ancestors(parent)] : [];
    };
    const served = spans.find((s) => s.name === 'process fn.exec.agent_helper');
    expect(served && byId.get(served.parentSpanId ?? '')?.name).toBe('send fn.exec.agent_helper');
    const childModelCalls = spans.filter(
      (s) => s.name === 'chat scripted-model' && ancestors(s).includes('process fn.exec.agent_helper'),
    );
    expect(childModelCalls).toHaveLength(1);
  });

  it('runs the agent for an API client through POST /functions/agent_helper/invoke', async () => {
    stack.llm.setScript({ rules: [{ match: 'direct-question', reply: 'direct-answer' }] });
    const res = await post(
      stack.base,
      '/api/v1/functions/agent_helper/invoke',
      { params: { message: 'direct-question' } },
      bearer(ADMIN_KEY),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as FnExecReplyView;
    expect(body.status).toBe('success');
    const data = body.result?.data as AgentCallData;
    expect(data).toMatchObject({ reply: 'direct-answer', finish_reason: 'final' });
    expect(await runOf(data.run_id)).toMatchObject({ agent: 'helper', parent_run_id: null });
  });

  it('refuses a cycle (lead → helper → lead) with an error the calling model reads', async () => {
    stack.llm.setScript({
      rules: [
        { match: 'already in the chain', reply: 'helper saw the cycle refused' },
        { match: 'helper saw the cycle refused', reply: 'lead done' },
        { match: 'cycle-helper', reply: '<call name="agent_lead"><p>message: cycle-lead</p></call>' },
        { match: 'go-cycle', reply: callHelper('cycle-helper') },
      ],
    });
    const parent = await chat('lead', 'go-cycle');
    expect(parent.reply).toBe('lead done');
    const childRun = await runOf(childOf(parent).run_id);
    expect(JSON.stringify(childRun.trace)).toContain('already in the chain of calls (lead → helper → lead)');
    expect(childRun.reply).toBe('helper saw the cycle refused');
  });

  it('refuses a chain deeper than AGENT_CALL_MAX_DEPTH', async () => {
    stack.llm.setScript({
      rules: [
        { match: 'the limit is 1', reply: 'helper saw the depth refused' },
        { match: 'helper saw the depth refused', reply: 'lead done' },
        { match: 'deep-helper', reply: '<call name="agent_deep"><p>message: deep-question</p></call>' },
        { match: 'go-deep', reply: callHelper('deep-helper') },
      ],
    });
    const parent = await chat('lead', 'go-deep');
    const childRun = await runOf(childOf(parent).run_id);
    expect(childRun.reply).toBe('helper saw the depth refused');
    expect(JSON.stringify(childRun.trace)).toContain('would nest agents 2 deep; the limit is 1');
  });

  it("applies the parent's allow-list: an agent not allowed agent_helper cannot call it", async () => {
    stack.llm.setScript({
      rules: [
        { match: 'go-outsider', reply: callHelper('sneaky-question') },
        { match: 'sneaky-question', reply: 'the helper should not have run' },
      ],
      fallback: 'outsider done',
    });
    const reply = await chat('outsider', 'go-outsider');
    expect(reply.function_calls).toEqual([
      expect.objectContaining({ name: 'agent_helper', status: 'error' }),
    ]);
    expect(JSON.stringify(reply.function_calls)).not.toContain('the helper should not have run');
  });

  it("runs the child with the caller's principal and scopes, never more", async () => {
    const res = await post(
      stack.base,
      '/api/v1/keys',
      { name: 'chatter', scopes: ['chat'], principal: 'chatter' },
      bearer(ADMIN_KEY),
    );
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    stack.llm.setScript({
      rules: [
        { match: 'scoped-question', reply: '<call name="whoami"></call>' },
        { match: 'go-scoped', reply: callHelper('scoped-question') },
      ],
      fallback: 'done',
    });
    const parent = await chat('lead', 'go-scoped', key);
    const childRunId = childOf(parent).run_id;
    const call = stack.functions.calls.find(
      (c) => c.name === 'whoami' && c.request.caller?.run_id === childRunId,
    );
    expect(call?.request.caller).toMatchObject({
      principal: 'chatter',
      scopes: ['chat'],
      agent: 'helper',
      chain: ['lead', 'helper'],
    });
  });

  it("bounds the child by the parent's remaining tokens", async () => {
    stack.llm.setScript({
      rules: [
        { match: 'budget-question', reply: '<call name="add"><p>a: 1</p><p>b: 2</p></call>' },
        {
          match: 'go-thrifty',
          reply: {
            text: callHelper('budget-question'),
            usage: { prompt_tokens: 100, completion_tokens: 20 },
          },
        },
      ],
      fallback: 'thrifty done',
    });
    const parent = await chat('thrifty', 'go-thrifty');
    const child = childOf(parent);
    expect(child.finish_reason).toBe('budget');
    expect(child.reply).toContain('the token budget of 30 was used up');
    // the child's tokens count as the parent's: with them, the parent has spent its own budget too
    expect(parent.finish_reason).toBe('budget');
  });

  it("bounds the child by the parent's call deadline", async () => {
    stack.llm.setScript({
      rules: [
        { match: 'slow-question', reply: { text: 'too late', latencyMs: 20_000 } },
        { match: 'go-hasty', reply: callHelper('slow-question') },
      ],
      fallback: 'hasty done',
    });
    const child = childOf(await chat('hasty', 'go-hasty'));
    expect(child.finish_reason).toBe('timeout');
    await expectEventually(async () => expect((await runOf(child.run_id)).finish_reason).toBe('timeout'));
  });
});
