import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, RunView, SessionView } from '@app/contracts';
import { ADMIN_KEY, addCall, type OpenAiStack, RATE_LIMIT, startOpenAiStack } from './openai-stack';

type LlmMessage = { role: string; content: string };
const llmMessages = (openai: OpenAiStack, i = -1) =>
  (openai.stack.llm.requests().at(i)?.body as { messages: LlmMessage[] }).messages;

describe('the OpenAI-compatible API with the real openai client (gateway, executor, NATS, SQLite)', () => {
  let openai: OpenAiStack;
  let client: OpenAI;

  beforeAll(async () => {
    openai = await startOpenAiStack(() => [{ name: 'helper', allowed_tools: ['add'] }]);
    client = openai.client();
  });
  afterAll(() => openai?.close());

  const get = (path: string, key = openai.chatKey) =>
    fetch(`${openai.stack.base}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('lists one model per agent profile, and finds one', async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['default', 'helper']));
    expect(await client.models.retrieve('helper')).toMatchObject({ id: 'helper', object: 'model' });
  });

  it('appears in the OpenAPI document: its routes, and the 404 of any other /v1 route', async () => {
    const doc = (await (await fetch(`${openai.stack.base}/api/docs`)).json()) as { paths: object };
    const paths = Object.keys(doc.paths).filter((path) => path.startsWith('/v1/'));
    expect(paths.sort()).toEqual([
      '/v1/*path',
      '/v1/chat/completions',
      '/v1/messages',
      '/v1/models',
      '/v1/models/{model}',
      '/v1/responses',
      '/v1/responses/{id}',
      '/v1/responses/{id}/cancel',
      '/v1/responses/{id}/input_items',
    ]);
  });

  it('answers a completion with the final answer, usage summed over the run and the run id', async () => {
    openai.script({ rules: [{ match: 'Two plus three', reply: addCall(2, 3) }], fallback: 'Five.' });
    const { data, response } = await client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'Two plus three?' }], temperature: 0.2 })
      .withResponse();
    expect(data.choices).toEqual([
      expect.objectContaining({
        index: 0,
        finish_reason: 'stop',
        message: expect.objectContaining({ role: 'assistant', content: 'Five.' }),
      }),
    ]);
    expect(data.choices[0].message.tool_calls).toBeUndefined();
    const runId = response.headers.get('x-run-id');
    expect(response.headers.get('x-session-id')).toMatch(/^ses_/);
    const run = (await (await get(`/api/v1/runs/${runId}`)).json()) as RunView;
    expect(run.trace.map((step) => step.kind)).toEqual(['action', 'final']);
    expect(openai.stack.llm.requests()).toHaveLength(2);
    expect(data.usage).toEqual({
      prompt_tokens: run.usage.prompt_tokens,
      completion_tokens: run.usage.completion_tokens,
      total_tokens: run.usage.prompt_tokens + run.usage.completion_tokens,
    });
    expect(data.usage?.prompt_tokens).toBeGreaterThan(0);
    expect((data as unknown as { agentchassis: object }).agentchassis).toMatchObject({
      run_id: runId,
      finish_reason: 'final',
      function_calls: [{ name: 'add', status: 'success', result: { data: { sum: 5 } } }],
    });
  });

  it('streams chunks the SDK helper reads, server-side calls only in the extension, usage last', async () => {
    openai.script({
      rules: [{ match: 'One plus one', reply: `Adding.\n${addCall(1, 1)}` }],
      fallback: 'Two.',
    });
    const stream = client.chat.completions.stream({
      model: 'helper',
      messages: [{ role: 'user', content: 'One plus one?' }],
      stream_options: { include_usage: true },
    });
    const chunks: (ChatCompletionChunk & OpenAI.ChatCompletionChunk)[] = [];
    for await (const chunk of stream) chunks.push(chunk as ChatCompletionChunk & OpenAI.ChatCompletionChunk);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Two.' } });
    expect(final.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(chunks.some((c) => c.choices.some((choice) => choice.delta.tool_calls))).toBe(false);
    const events = chunks
      .filter((c) => c.agentchassis)
      .map((c) => c.agentchassis?.event)
      .filter((type, i, all) => type !== 'delta' || all[i - 1] !== 'delta');
    // text before a call is only its thought; deltas are the answer's text
    expect(events).toEqual(['thought', 'tool_call', 'tool_result', 'delta', 'run_end']);
    expect(chunks.find((c) => c.agentchassis?.event === 'tool_call')?.agentchassis).toMatchObject({
      name: 'add',
      arguments: { a: 1, b: 1 },
    });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.total_tokens).toBeGreaterThan(0);
    expect(last?.usage?.total_tokens).toBe(
      (last?.usage?.prompt_tokens ?? 0) + (last?.usage?.completion_tokens ?? 0),
    );
  });

  it('continues a session named by X-Session-Id with only the new user message', async () => {
    openai.script({ rules: [{ match: 'I am Ada', reply: 'Hello Ada.' }], fallback: 'You are Ada.' });
    const first = await client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'I am Ada.' }], user: 'same-user' })
      .withResponse();
    const sessionId = first.response.headers.get('x-session-id') as string;
    const second = await client.chat.completions
      .create(
        { model: 'helper', messages: [{ role: 'user', content: 'Who am I?' }], user: 'same-user' },
        { headers: { 'X-Session-Id': sessionId } },
      )
      .withResponse();
    expect(second.data.choices[0].message.content).toBe('You are Ada.');
    expect(second.response.headers.get('x-session-id')).toBe(sessionId);
    expect(llmMessages(openai).slice(1)).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hello Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);
    const session = (await (await get(`/api/v1/sessions/${sessionId}`)).json()) as SessionView;
    expect(session.messages.map((m) => m.content)).toEqual([
      'I am Ada.',
      'Hello Ada.',
      'Who am I?',
      'You are Ada.',
    ]);
    // The same `user` without the header is a new conversation: `user` never picks a session.
    const third = await client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }], user: 'same-user' })
      .withResponse();
    expect(third.response.headers.get('x-session-id')).not.toBe(sessionId);
  });

  it('without X-Session-Id takes the messages as the whole context, system messages after the agent prompt', async () => {
    openai.script({ fallback: 'You are Grace.' });
    const { data } = await client.chat.completions
      .create({
        model: 'helper',
        messages: [
          { role: 'system', content: 'Answer like a pirate.' },
          { role: 'user', content: 'I am Grace.' },
          { role: 'assistant', content: 'Ahoy Grace.' },
          { role: 'user', content: 'Who am I?' },
        ],
      })
      .withResponse();
    expect(data.choices[0].message.content).toBe('You are Grace.');
    const [system, instructions, ...turns] = llmMessages(openai);
    // the agent's prompt stays whole (the prefix a provider's cache serves); the caller's follows it
    expect(system.content).toMatch(/^You are a helpful assistant[\s\S]*## Calling functions/);
    expect(system.content).not.toContain('pirate');
    expect(instructions).toEqual({ role: 'system', content: 'Answer like a pirate.' });
    expect(turns).toEqual([
      { role: 'user', content: 'I am Grace.' },
      { role: 'assistant', content: 'Ahoy Grace.' },
      { role: 'user', content: 'Who am I?' },
    ]);
  });

  it('answers errors in OpenAI shape with the right status', async () => {
    const noKey = await fetch(`${openai.stack.base}/v1/models`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      error: {
        message: expect.stringContaining('missing API key'),
        type: 'authentication_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    await expect(openai.client('ac_not_a_real_key_at_all').models.list()).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    const readOnly = openai.client(await openai.createKey(['functions:read']));
    await expect(
      readOnly.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toMatchObject({
      status: 403,
      type: 'permission_error',
      message: expect.stringContaining("'chat' scope"),
    });
    await expect(
      client.chat.completions.create({ model: 'nobody', messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    const hello = [{ role: 'user' as const, content: 'Hi' }];
    await expect(
      client.chat.completions.create(
        { model: 'helper', messages: hello },
        { headers: { 'X-Session-Id': 'no good' } },
      ),
    ).rejects.toMatchObject({ status: 400, param: 'X-Session-Id' });
    await expect(
      client.chat.completions.create(
        { model: 'helper', messages: hello },
        { headers: { 'X-Session-Id': 'ses_gone' } },
      ),
    ).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining("session 'ses_gone' not found"),
    });
    // Refused before the run starts, a streamed request is answered as an ordinary error too.
    await expect(
      client.chat.completions.create({
        model: 'nobody',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(
      client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'Hi' }], n: 2 }),
    ).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', param: 'n' });
    await expect(
      client.chat.completions.create({
        model: 'helper',
        messages: [{ role: 'robot' as 'user', content: 'Hi' }],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'messages[0].role' });
    await expect(
      client.chat.completions.create({ model: 'helper', messages: [{ role: 'assistant', content: 'Hi' }] }),
    ).rejects.toMatchObject({
      status: 400,
      param: 'messages',
      message: expect.stringContaining('last message'),
    });
    const notJson = await fetch(`${openai.stack.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.any(String) },
    });
    await expect(client.embeddings.create({ model: 'helper', input: 'x' })).rejects.toMatchObject({
      status: 404,
      type: 'invalid_request_error',
      message: expect.stringContaining('POST /v1/embeddings is not served'),
    });
    // The platform's own API keeps its error shape.
    expect(await (await fetch(`${openai.stack.base}/api/v1/agents`)).json()).toMatchObject({
      error: { code: 'unauthorized' },
    });
  });

  it('answers 429 with Retry-After past the per-minute limit', async () => {
    const limited = await openai.createKey(['chat']);
    let res: Response | undefined;
    for (let i = 0; i <= 2 * RATE_LIMIT + 1; i++) {
      res = await get('/v1/models', limited);
      if (res.status !== 200) break;
    }
    expect(res?.status).toBe(429);
    expect(Number(res?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res?.json()).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
    });
  });
});
