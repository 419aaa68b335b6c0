import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_REPLY_TEXT } from './script-player';
import { startScriptedLlm, type ScriptedLlm } from './scripted-llm.server';

let llm: ScriptedLlm;
const root = () => llm.url.replace(/\/v1$/, '');

beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.setScript({});
  llm.clearRequests();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${root()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function sseData(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

const hello = { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] };

describe('scripted LLM server, OpenAI format', () => {
  it('answers a chat completion with the real wire fields', async () => {
    llm.setScript({ replies: ['Hello there'] });
    const { status, text } = await post('/chat/completions', hello);
    const body = JSON.parse(text);
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'chat.completion', model: 'gpt-test' });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices[0]).toMatchObject({
      index: 0,
      message: { role: 'assistant', content: 'Hello there' },
      finish_reason: 'stop',
    });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('streams chunks, a usage chunk when asked, then [DONE]', async () => {
    llm.setScript({ replies: ['one two three'] });
    const { headers, text } = await post('/v1/chat/completions', {
      ...hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    const data = sseData(text);
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('one two three');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it('sends no usage chunk unless stream_options.include_usage', async () => {
    llm.setScript({ replies: ['hi'] });
    const chunks = sseData((await post('/v1/chat/completions', { ...hello, stream: true })).text).slice(
      0,
      -1,
    );
    expect(chunks.map((line) => JSON.parse(line)).some((chunk) => chunk.usage)).toBe(false);
  });

  it('returns tool_calls that the official SDK reads, plain and streamed', async () => {
    const toolReply = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo', days: 3 } }] };
    llm.setScript({ replies: [toolReply], fallback: toolReply });
    const client = new OpenAI({ apiKey: 'k', baseURL: llm.url, maxRetries: 0 });
    const plain = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'weather?' }],
    });
    const streamed = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'weather?' }] })
      .finalChatCompletion();
    for (const completion of [plain, streamed]) {
      const call = completion.choices[0].message.tool_calls?.[0];
      expect(completion.choices[0].finish_reason).toBe('tool_calls');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
        city: 'Oslo',
        days: 3,
      });
      expect(call?.id).toMatch(/^call_/);
    }
  });

  it('answers a scripted error with the provider error body and retry-after', async () => {
    llm.setScript({ replies: [{ status: 429, retryAfterMs: 20 }] });
    const { status, headers, text } = await post('/v1/chat/completions', hello);
    expect(status).toBe(429);
    expect(headers.get('retry-after-ms')).toBe('20');
    expect(JSON.parse(text).error).toMatchObject({
      type: 'requests',
      code: 'rate_limit_exceeded',
      message: expect.any(String),
    });
  });
});

describe('scripted LLM server, Anthropic format', () => {
  const client = () => new Anthropic({ apiKey: 'k', baseURL: root(), maxRetries: 0 });
  const ask = {
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'weather?' }],
  };

  it('answers a message with text and tool_use blocks', async () => {
    llm.setScript({
      replies: [{ text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }],
    });
    const message = await client().messages.create(ask);
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Let me check.' });
    expect(message.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'Oslo' },
    });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams the event sequence the SDK assembles into the same message', async () => {
    llm.setScript({
      replies: [{ text: 'Checking now', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }],
    });
    const { text } = await post('/v1/messages', { ...ask, stream: true });
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('event: '))
      .map((line) => line.slice(7));
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    llm.setScript({
      replies: [{ text: 'Checking now', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }],
    });
    const message = await client().messages.stream(ask).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(message.content[1]).toMatchObject({ input: { city: 'Oslo' } });
    expect(message.stop_reason).toBe('tool_use');
  });

  it('answers errors with the Anthropic error body', async () => {
    llm.setScript({ replies: [{ status: 529 }] });
    const { status, text } = await post('/v1/messages', ask);
    expect(status).toBe(529);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});

describe('scripted LLM server, conversations and control', () => {
  it('keeps each conversation on its own replies, keyed by header or first user message', async () => {
    llm.setScript({ replies: [{ status: 500 }, 'first', 'second'] });
    const a = { 'x-scripted-conversation': 'a' };
    expect((await post('/v1/chat/completions', hello, a)).status).toBe(500);
    expect((await post('/v1/chat/completions', hello, { 'x-scripted-conversation': 'b' })).status).toBe(500);
    const retried = JSON.parse((await post('/v1/chat/completions', hello, a)).text);
    expect(retried.choices[0].message.content).toBe('first');
    const history = [
      ...hello.messages,
      { role: 'assistant', content: 'first' },
      { role: 'user', content: 'more' },
    ];
    const next = JSON.parse((await post('/v1/chat/completions', { messages: history }, a)).text);
    expect(next.choices[0].message.content).toBe('second');
  });

  it('records what the platform sent, without credentials', async () => {
    llm.setScript({ replies: ['ok'] });
    const body = {
      model: 'm',
      messages: [{ role: 'system', content: 'be brief' }, ...hello.messages],
      tools: [],
    };
    await post('/v1/chat/completions', body, { authorization: 'Bearer sk-secret' });
    const recorded = (await (await fetch(`${root()}/_requests`)).json()) as Array<Record<string, any>>;
    expect(recorded).toHaveLength(1);
    expect(recorded[0].body.messages[0]).toEqual({ role: 'system', content: 'be brief' });
    expect(recorded[0].headers.authorization).toBe('***');
    await fetch(`${root()}/_requests`, { method: 'DELETE' });
    expect(llm.requests()).toHaveLength(0);
  });

  it('replaces the script over HTTP and refuses an invalid one', async () => {
    const put = (script: unknown) =>
      fetch(`${root()}/_script`, { method: 'PUT', body: JSON.stringify(script) });
    expect((await put({ replies: ['from http'] })).status).toBe(200);
    expect(JSON.parse((await post('/v1/chat/completions', hello)).text).choices[0].message.content).toBe(
      'from http',
    );
    const refused = await put({ replies: 'nope' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { message: 'replies must be an array' } });
  });

  it('says clearly that no reply was scripted instead of hanging', async () => {
    const body = JSON.parse((await post('/v1/chat/completions', hello)).text);
    expect(body.choices[0].message.content).toBe(NO_REPLY_TEXT);
  });

  it('answers bad JSON with 400 and an unknown route with 404, OpenAI-shaped', async () => {
    const bad = await post('/v1/chat/completions', '{"messages": [');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.any(String),
    });
    const missing = await post('/nowhere', hello);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.message).toMatch(/nowhere/);
  });

  it('lists its model', async () => {
    const list = await (await fetch(`${llm.url}/models`)).json();
    expect(list).toMatchObject({ object: 'list', data: [{ id: 'scripted-model', object: 'model' }] });
  });

  it('holds 1,000 concurrent requests with 1 s latency on timers', async () => {
    llm.setScript({ latencyMs: 1_000, replies: ['{{last_user}}'] });
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        post('/v1/chat/completions', { messages: [{ role: 'user', content: `conversation ${i}` }] }),
      ),
    );
    expect(
      replies.every((reply, i) => JSON.parse(reply.text).choices[0].message.content === `conversation ${i}`),
    ).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('scripted LLM server, embeddings', () => {
  const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

  it('answers the OpenAI client with deterministic unit vectors, close for shared word stems', async () => {
    const openai = new OpenAI({ baseURL: llm.url, apiKey: 'sk-test' });
    const reply = await openai.embeddings.create({
      model: 'emb-test',
      input: ['the mechanic repairs engines', 'repairing an engine', 'quarterly tax invoice'],
      dimensions: 32,
    });
    const [a, b, c] = reply.data.map((d) => d.embedding);
    expect(reply.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(a).toHaveLength(32);
    expect(Math.hypot(...a)).toBeCloseTo(1);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
    const again = await openai.embeddings.create({
      model: 'emb-test',
      input: 'repairing an engine',
      dimensions: 32,
    });
    expect(again.data[0].embedding).toEqual(b);
    expect(llm.requests().at(-1)?.path).toBe('/v1/embeddings');
  });

  it('rejects an input that is not text with a 400', async () => {
    expect((await post('/v1/embeddings', { input: [1, 2] })).status).toBe(400);
  });
});

describe('scripted LLM server, emulated prompt cache', () => {
  let cached: ScriptedLlm;
  // ~1,500 tokens of instructions: long enough to be cached
  const instructions = Array.from({ length: 300 }, (_, i) => `Rule ${i}: be exact.`).join('\n');

  beforeAll(async () => {
    cached = await startScriptedLlm({ promptCache: true, script: { fallback: 'Done.' } });
  });
  afterAll(() => cached.close());

  it("reports a grown conversation's earlier prefix in OpenAI's cached_tokens, in 128-token steps", async () => {
    const openai = new OpenAI({ baseURL: cached.url, apiKey: 'sk-test' });
    const first = [
      { role: 'system' as const, content: instructions },
      { role: 'user' as const, content: 'What is 2 + 3?' },
    ];
    const one = await openai.chat.completions.create({ model: 'gpt-test', messages: first });
    expect(one.usage?.prompt_tokens).toBeGreaterThan(1024);
    expect(one.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const two = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [...first, { role: 'assistant', content: '5' }, { role: 'user', content: 'And 4 + 4?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of two) usage ??= chunk.usage;
    const cachedTokens = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cachedTokens % 128).toBe(0);
    expect(cachedTokens).toBeGreaterThan(one.usage!.prompt_tokens - 128);
    expect(cachedTokens).toBeLessThanOrEqual(one.usage!.prompt_tokens);
  });

  it("reads Anthropic's marked prefixes back as cache_read_input_tokens, writes as cache_creation_input_tokens", async () => {
    const anthropic = new Anthropic({ baseURL: cached.url.replace(/\/v1$/, ''), apiKey: 'sk-ant-test' });
    const system = [
      {
        type: 'text' as const,
        text: `${instructions}\nAnthropic.`,
        cache_control: { type: 'ephemeral' as const },
      },
    ];
    const ask = { model: 'claude-test', max_tokens: 100, system };
    const unmarked = await anthropic.messages.create({
      ...ask,
      system: [{ type: 'text', text: `${instructions}\nUnmarked.` }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(unmarked.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    const one = await anthropic.messages.create({ ...ask, messages: [{ role: 'user', content: 'hi' }] });
    expect(one.usage.cache_read_input_tokens).toBe(0);
    expect(one.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    const two = await anthropic.messages
      .stream({ ...ask, messages: [{ role: 'user', content: 'hello' }] })
      .finalMessage();
    expect(two.usage.cache_read_input_tokens).toBe(one.usage.cache_creation_input_tokens);
    expect(two.usage.cache_creation_input_tokens).toBe(0);
    expect(two.usage.input_tokens).toBeGreaterThan(0);
  });
});
