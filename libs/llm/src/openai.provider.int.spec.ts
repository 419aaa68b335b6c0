import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, LlmProviderConfig } from './llm-provider';
import { failureOf, LONG_INSTRUCTIONS, scriptedProviders } from './provider-spec.fixture';

const world = scriptedProviders({ provider: 'openai-compatible', apiKey: 'sk-test', model: 'gpt-test' });
const provider = (overrides?: Partial<LlmProviderConfig>) => world.provider(overrides);

const ask: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'What is the weather in Oslo?' },
];
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAiProvider', () => {
  it('completes a chat and records usage, model and provider', async () => {
    world.llm.setScript({ replies: ['Sunny, 21 degrees.'] });
    const result = await provider({ maxTokens: 64 }).complete({ messages: ask });
    expect(result).toMatchObject({
      text: 'Sunny, 21 degrees.',
      toolCalls: [],
      stopReason: 'stop',
      model: 'gpt-test',
    });
    expect(result.provider).toBe('openai-compatible');
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
    const sent = world.llm.requests()[0].body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'gpt-test',
      max_tokens: 64,
      messages: [{ role: 'system', content: 'You are terse.' }, ask[1]],
    });
  });

  it.each([
    ['plain', undefined],
    ['streamed', () => undefined],
  ])("records the prompt tokens the provider's cache served (%s)", async (_, onDelta) => {
    world.llm.setScript({ fallback: 'ok' });
    const opening: ChatMessage[] = [
      { role: 'system', content: `${String(onDelta)}\n${LONG_INSTRUCTIONS}` },
      { role: 'user', content: 'What is 2 + 3?' },
    ];
    const first = await provider().complete({ messages: opening, onDelta });
    expect(first.usage.cached_prompt_tokens).toBeUndefined();
    expect(first.usage.cache_write_tokens).toBeGreaterThan(1024);
    const second = await provider().complete({
      messages: [...opening, { role: 'assistant', content: '5' }, { role: 'user', content: 'And 4 + 4?' }],
      onDelta,
    });
    expect(second.usage.cached_prompt_tokens).toBe(first.usage.cache_write_tokens);
    expect(second.usage.prompt_tokens).toBeGreaterThan(first.usage.prompt_tokens);
  });

  it('sends a hashed prompt_cache_key where the server takes one, and none to an unknown compatible server', async () => {
    world.llm.setScript({ fallback: 'ok' });
    await provider().complete({ messages: ask, cacheKey: 'ses_secret-session' });
    await provider({ promptCache: 'on' }).complete({ messages: ask, cacheKey: 'ses_secret-session' });
    await provider({ promptCache: 'on' }).complete({ messages: ask, cacheKey: 'ses_other' });
    const [auto, on, other] = world.llm.requests().map((request) => request.body as Record<string, unknown>);
    expect(auto).not.toHaveProperty('prompt_cache_key');
    expect(on.prompt_cache_key).toMatch(/^[\w-]{32}$/);
    expect(on.prompt_cache_key).not.toContain('secret');
    expect(other.prompt_cache_key).not.toBe(on.prompt_cache_key);
  });

  it('streams text deltas in order and records usage from the final chunk', async () => {
    world.llm.setScript({ replies: ['It is sunny in Oslo today.'] });
    const deltas: string[] = [];
    const result = await provider().complete({ messages: ask, onDelta: (text) => deltas.push(text) });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('It is sunny in Oslo today.');
    expect(result.text).toBe('It is sunny in Oslo today.');
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
    expect(world.llm.requests()[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it.each([
    ['plain', undefined],
    ['streamed', () => undefined],
  ])(
    'returns native tool calls whole (%s) and sends the tool result back in OpenAI shape',
    async (_, onDelta) => {
      world.llm.setScript({
        replies: [
          { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo', units: { temp: 'C' } } }] },
          'Sunny.',
        ],
      });
      const first = await provider().complete({ messages: ask, tools: [weatherTool], onDelta });
      expect(first.stopReason).toBe('tool_calls');
      expect(first.toolCalls).toEqual([
        {
          id: expect.stringMatching(/^call_/),
          name: 'get_weather',
          arguments: { city: 'Oslo', units: { temp: 'C' } },
        },
      ]);
      const history: ChatMessage[] = [
        ...ask,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', content: '{"sky":"clear"}', toolCallId: first.toolCalls[0].id },
      ];
      expect((await provider().complete({ messages: history, tools: [weatherTool], onDelta })).text).toBe(
        'Sunny.',
      );
      const sent = world.llm.requests()[1].body as {
        messages: Array<Record<string, unknown>>;
        tools: unknown[];
      };
      expect(sent.tools).toEqual([{ type: 'function', function: weatherTool }]);
      expect(sent.messages[2]).toMatchObject({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: first.toolCalls[0].id, type: 'function', function: { name: 'get_weather' } }],
      });
      expect(sent.messages[3]).toEqual({
        role: 'tool',
        tool_call_id: first.toolCalls[0].id,
        content: '{"sky":"clear"}',
      });
    },
  );

  it('retries a 429 and succeeds', async () => {
    world.llm.setScript({ replies: [{ status: 429, retryAfterMs: 10 }, 'recovered'] });
    const result = await provider({ maxRetries: 2 }).complete({ messages: ask });
    expect(result.text).toBe('recovered');
    expect(world.llm.requests()).toHaveLength(2);
  });

  it('gives up with llm_unavailable after two 500s when maxRetries is 1', async () => {
    world.llm.setScript({
      replies: [{ status: 500, retryAfterMs: 10 }, { status: 500, retryAfterMs: 10 }, 'too late'],
    });
    const error = await failureOf(provider({ maxRetries: 1 }).complete({ messages: ask }));
    expect(error).toMatchObject({ code: 'llm_unavailable', status: 500, retryable: true });
    expect(world.llm.requests()).toHaveLength(2);
  });

  it('reports a reply slower than timeoutMs as llm_timeout, quickly', async () => {
    world.llm.setScript({ replies: [{ text: 'too slow', latencyMs: 10_000 }] });
    const started = Date.now();
    const error = await failureOf(provider({ timeoutMs: 150 }).complete({ messages: ask }));
    expect(error.code).toBe('llm_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    const key = 'sk-CANARY-d0n7-l34k-7h15-k3y-0123456789';
    world.llm.setScript({ replies: [{ status: 401, error: 'Incorrect API key provided: {{api_key}}' }] });
    const error = await failureOf(provider({ apiKey: key }).complete({ messages: ask }));
    expect(error).toMatchObject({ code: 'llm_auth', status: 401 });
    expect(error.message).toContain('Incorrect API key provided: ***');
    for (const text of [
      error.message,
      error.stack ?? '',
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain(key);
    }
  });

  it('reports a caller abort as llm_aborted', async () => {
    world.llm.setScript({ replies: [{ text: 'never', latencyMs: 10_000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failureOf(provider().complete({ messages: ask, signal: controller.signal }));
    expect(error.code).toBe('llm_aborted');
  });

  it('keeps 200 concurrent conversations on their own ordered replies', async () => {
    world.llm.setScript({
      latencyMs: 20,
      replies: ['1:{{last_user}}', '2:{{last_user}}', '3:{{last_user}}'],
    });
    const chat = provider();
    const converse = async (id: number) => {
      const history: ChatMessage[] = [];
      const replies: string[] = [];
      for (const step of ['a', 'b', 'c']) {
        history.push({ role: 'user', content: `conversation ${id} ${step}` });
        const result = await chat.complete({
          messages: history,
          onDelta: id % 2 ? () => undefined : undefined,
        });
        history.push({ role: 'assistant', content: result.text });
        replies.push(result.text);
      }
      return replies;
    };
    const all = await Promise.all(Array.from({ length: 200 }, (_, id) => converse(id)));
    all.forEach((replies, id) => {
      expect(replies).toEqual([`1:conversation ${id} a`, `2:conversation ${id} b`, `3:conversation ${id} c`]);
    });
  });
});
