import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView, SessionView } from '@app/contracts';
import { migratedSqliteUrl, REPO_ROOT } from '@app/testing';
import { delay } from '../../apps/agent-executor/src/testing/test-functions';
import { add, type ChatStack, post, readEvents, type SseEvent, startChatStack } from './chat-stack';

const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;

describe('the chat API (gateway and executor processes, real NATS, SQLite, the scripted model)', () => {
  let stack: ChatStack;
  let base: string;

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [
        add,
        {
          name: 'nap',
          params: { ms: { type: 'integer' } },
          run: async ({ ms }) => (await delay(Number(ms)), {}),
        },
      ],
      agents: (llmUrl) => [
        { name: 'approver', mode: 'plan', allowed_tools: ['add'], plan_approval: true },
        {
          name: 'claude',
          provider: 'anthropic',
          base_url: llmUrl,
          api_key: 'sk-ant-test',
          allowed_tools: ['add'],
        },
      ],
    });
    base = stack.base;
  });
  afterAll(() => stack?.close());

  const script = (replies: Parameters<ChatStack['llm']['setScript']>[0]) => {
    stack.llm.setScript(replies);
    stack.llm.clearRequests();
  };
  const chat = async (body: Record<string, unknown>) => {
    const res = await post(base, '/api/v1/chat', body);
    return {
      status: res.status,
      body: (await res.json()) as AgentRunReply & { error?: { code: string; message: string } },
    };
  };

  it('answers a chat turn with one tool call as the documented JSON body', async () => {
    script({ replies: [addCall(2, 3), 'Five.'] });
    const { status, body } = await chat({ message: 'Two plus three?' });
    expect(status).toBe(200);
    expect(body).toEqual({
      session_id: expect.stringMatching(/^ses_/),
      run_id: expect.stringMatching(/^run_/),
      reply: 'Five.',
      function_calls: [{ name: 'add', status: 'success', result: { data: { sum: 5 } } }],
      finish_reason: 'final',
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
    const run = (await (await fetch(`${base}/api/v1/runs/${body.run_id}`)).json()) as RunView;
    expect(run).toMatchObject({
      status: 'completed',
      finish_reason: 'final',
      used_tools: { add: { count: 1 } },
    });
    expect(run.trace.map((s) => s.kind)).toEqual(['action', 'final']);
  });

  it('keeps a session across turns, shows it, and deletes it', async () => {
    script({ replies: ['Hello Ada.', 'You are Ada.'] });
    const first = await chat({ message: 'I am Ada.' });
    const second = await chat({ message: 'Who am I?', session_id: first.body.session_id });
    expect(second.body.reply).toBe('You are Ada.');
    const session = (await (
      await fetch(`${base}/api/v1/sessions/${first.body.session_id}`)
    ).json()) as SessionView;
    expect(session.messages.map((m) => m.content)).toEqual([
      'I am Ada.',
      'Hello Ada.',
      'Who am I?',
      'You are Ada.',
    ]);
    expect(
      (await fetch(`${base}/api/v1/sessions/${first.body.session_id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await fetch(`${base}/api/v1/sessions/${first.body.session_id}`)).status).toBe(404);
  });

  it('answers 404 for an unknown session or run, 400 for a missing message', async () => {
    const unknown = await chat({ message: 'Hi', session_id: 'ses_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', message: "session 'ses_nope' not found" });
    expect((await fetch(`${base}/api/v1/sessions/ses_nope`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/runs/run_nope`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/runs/not%20an%20id`)).status).toBe(404);
    const missing = await chat({ session_id: 'ses_x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('message'),
    });
    expect((await post(base, '/api/v1/chat')).status).toBe(400);
  });

  it('streams a turn as SSE in order, ending with run_end carrying the full response', async () => {
    script({ replies: [`Adding.\n${addCall(1, 1)}`, 'Two.'] });
    const res = await post(base, '/api/v1/chat', { message: 'One plus one', stream: true });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual([
      'run_start',
      'thought',
      'tool_call',
      'tool_result',
      'delta',
      'run_end',
    ]);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.join('')).toBe('Two.');
    expect(events.at(-1)?.data).toMatchObject({
      reply: 'Two.',
      finish_reason: 'final',
      function_calls: [{ name: 'add', status: 'success' }],
    });
  });

  it('streams a continued session like a new one when the model calls a tool again', async () => {
    // Replies chosen by what the model was sent, not by turn number: every turn calls `add` once.
    script({ rules: [{ match: '<result', reply: 'Two.' }], fallback: `Adding.\n${addCall(1, 1)}` });
    const first = await readEvents(
      await post(base, '/api/v1/chat', { message: 'One plus one', stream: true }),
    );
    const session_id = (first.at(-1)?.data as AgentRunReply).session_id;
    const again = await readEvents(
      await post(base, '/api/v1/chat', { message: 'And again', session_id, stream: true }),
    );
    const order = ['run_start', 'thought', 'tool_call', 'tool_result', 'delta', 'run_end'];
    expect(first.map((e) => e.event)).toEqual(order);
    expect(again.map((e) => e.event)).toEqual(order);
    expect(again.at(-1)?.data).toMatchObject({ session_id, reply: 'Two.' });
  });

  it('streams when the client asks for text/event-stream, and refuses an unknown session as JSON', async () => {
    script({ replies: ['Hi.'] });
    const streamed = await post(base, '/api/v1/chat', { message: 'Hello' }, { accept: 'text/event-stream' });
    expect((await readEvents(streamed)).map((e) => e.event)).toEqual(['run_start', 'delta', 'run_end']);
    const refused = await post(base, '/api/v1/chat', {
      message: 'Hello',
      session_id: 'ses_gone',
      stream: true,
    });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/json/);
  });

  it('cancels a run in flight', async () => {
    script({ replies: [{ text: 'too late', latencyMs: 10_000 }] });
    const res = await post(base, '/api/v1/chat', { message: 'Take your time', stream: true });
    let cancelled: Promise<Response> | undefined;
    const events = await readEvents(res, (event: SseEvent) => {
      if (event.event === 'run_start')
        cancelled = post(base, `/api/v1/runs/${(event.data as { run_id: string }).run_id}/cancel`);
    });
    const answer = await cancelled;
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toMatchObject({ finish_reason: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', data: { finish_reason: 'cancelled' } });
  });

  it('holds a plan for approval and runs it when approved', async () => {
    script({ replies: ['{"steps":[{"description":"add","tool":"add","params":{"a":4,"b":4}}]}', 'Eight.'] });
    const paused = await chat({ message: 'Four plus four', agent: 'approver' });
    expect(paused.body.finish_reason).toBe('awaiting_approval');
    const approved = await post(base, `/api/v1/runs/${paused.body.run_id}/approve`);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      finish_reason: 'final',
      reply: 'Eight.',
      function_calls: [{ name: 'add', status: 'success' }],
    });
    expect((await post(base, `/api/v1/runs/${paused.body.run_id}/reject`)).status).toBe(409);
  });

  it('streams an approved plan as it runs', async () => {
    script({ replies: ['{"steps":[{"description":"add","tool":"add","params":{"a":1,"b":1}}]}', 'Two.'] });
    const paused = await chat({ message: 'One plus one', agent: 'approver' });
    const res = await post(base, `/api/v1/runs/${paused.body.run_id}/approve`, undefined, {
      accept: 'text/event-stream',
    });
    const order = (await readEvents(res))
      .map((e) => e.event)
      .filter((type, i, all) => type !== 'delta' || all[i - 1] !== 'delta');
    expect(order).toEqual(['run_start', 'step', 'tool_call', 'tool_result', 'step', 'delta', 'run_end']);
    const rejected = await post(base, `/api/v1/runs/${paused.body.run_id}/approve`, undefined, {
      accept: 'text/event-stream',
    });
    expect(rejected.status).toBe(409);
  });

  it('answers 404 for an unknown agent', async () => {
    const { status, body } = await chat({ message: 'Hi', agent: 'nobody' });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'not_found', message: "agent 'nobody' not found" });
  });

  it('drives an agent on the Anthropic Messages API', async () => {
    script({ replies: [addCall(20, 22), 'Forty-two.'] });
    const { body } = await chat({ message: 'Twenty plus twenty-two', agent: 'claude' });
    expect(body).toMatchObject({
      reply: 'Forty-two.',
      function_calls: [{ name: 'add', result: { data: { sum: 42 } } }],
    });
    expect(stack.llm.requests().map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
  });

  it('lists, shows and creates agent profiles', async () => {
    const created = await post(base, '/api/v1/agents', {
      name: 'helper',
      allowed_tools: ['add'],
      max_steps: 3,
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'helper', source: 'api', max_steps: 3 });
    const list = (await (await fetch(`${base}/api/v1/agents`)).json()) as { name: string }[];
    expect(list.map((a) => a.name)).toEqual(['approver', 'claude', 'default', 'helper']);
    expect(JSON.stringify(list)).not.toContain('sk-ant-test');
    expect(await (await fetch(`${base}/api/v1/agents/helper`)).json()).toMatchObject({ name: 'helper' });
    expect((await fetch(`${base}/api/v1/agents/nobody`)).status).toBe(404);
    expect((await post(base, '/api/v1/agents', { name: 'helper' })).status).toBe(409);
    expect((await post(base, '/api/v1/agents', { max_steps: 3 })).status).toBe(400);
  });

  it("writes an agent's prompts in its language, with its own templates, and refuses a template it does not have", async () => {
    const created = await post(base, '/api/v1/agents', {
      name: 'zhushou',
      language: 'zh',
      allowed_tools: ['add'],
      prompts: { react_guide_xml_toon: '调用函数时写：{example}\nSAY-HELLO-IN-XML' },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      language: 'zh',
      system_prompt: expect.stringMatching(/[\u4e00-\u9fff]/),
    });
    script({ replies: ['好的。'] });
    expect((await chat({ message: '你好', agent: 'zhushou' })).body.reply).toBe('好的。');
    const [request] = stack.llm.requests();
    const system = (request.body as { messages: { role: string; content: string }[] }).messages[0].content;
    expect(system).toMatch(/[\u4e00-\u9fff]/);
    expect(system).toContain('SAY-HELLO-IN-XML');
    const typo = await post(base, '/api/v1/agents', { name: 'typo', prompts: { sytem: 'x' } });
    expect(typo.status).toBe(400);
    expect(JSON.stringify(await typo.json())).toContain('sytem');
  });
});

describe('an executor with a bad agent profile', () => {
  it('exits non-zero with a message naming the profile and the field', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ac-bad-agents-')), 'agentchassis.yaml');
    writeFileSync(file, 'agents:\n  - name: ops\n    protocol: carrier-pigeon\n');
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/apps/agent-executor/src/main.js')], {
      env: { PATH: process.env.PATH ?? '', AC_CONFIG: file, DATABASE_URL: await migratedSqliteUrl() },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(`${result.stdout}${result.stderr}`).toMatch(/agents\[0\] \(ops\).*protocol/);
  });
});
