import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, LlmProviderConfig } from './llm-provider';
import { failureOf, LONG_INSTRUCTIONS, scriptedProviders } from './provider-spec.fixture';

const world = scriptedProviders({ provider: 'anthropic', apiKey: 'sk-ant-test', model: 'claude-test' });
const provider = (overrides?: Partial<LlmProviderConfig>) => world.provider(overrides);

const ask: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Oslo and Bergen?' },
];
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('AnthropicProvider', () => {
  it('completes a message with the system prompt at the top level', async () => {
    world.llm.setScript({ replies: ['Both sunny.'] });
    const result = await provider().complete({ messages: ask });
    expect(result).toMatchObject({
      text: 'Both sunny.',
      stopReason: 'stop',
      provider: 'anthropic',
      model: 'claude-test',
    });
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
    expect(world.llm.requests()[0].path).toBe('/v1/messages');
    expect(world.llm.requests()[0].body).toMatchObject({
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Bergen?' }] }],
    });
  });

  it("marks the agent's prompt, the previous request's end and this one's for the cache, and reports what it served", async () => {
    world.llm.setScript({
      replies: [{ text: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, 'Sunny.'],
    });
    const opening: ChatMessage[] = [
      { role: 'system', content: LONG_INSTRUCTIONS },
      { role: 'system', content: 'This turn: be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ];
    const first = await provider().complete({ messages: opening, tools: [weatherTool] });
    expect(first.usage.cache_write_tokens).toBe(first.usage.prompt_tokens - 3);
    expect(first.usage.cached_prompt_tokens).toBeUndefined();
    const [call] = first.toolCalls;
    const second = await provider().complete({
      messages: [
        ...opening,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', content: 'sunny, 21 °C', toolCallId: call.id },
      ],
      tools: [weatherTool],
      onDelta: () => undefined,
    });
    // everything the first request sent (but its reply's priming) is read back; only the new turns are written
    expect(second.usage.cached_prompt_tokens).toBe(first.usage.prompt_tokens - 3);
    expect(second.usage.prompt_tokens).toBeGreaterThan(
      second.usage.cached_prompt_tokens! + (second.usage.cache_write_tokens ?? 0),
    );
    const sent = world.llm.requests()[1].body as {
      system: { text: string; cache_control?: unknown }[];
      tools: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    const marked = (blocks: { cache_control?: unknown }[]) => blocks.map((block) => !!block.cache_control);
    expect(marked(sent.system)).toEqual([true, false]);
    expect(marked(sent.tools)).toEqual([false]);
    expect(sent.messages.map((message) => marked(message.content))).toEqual([[true], [false], [true]]);
  });

  it('places no cache marks with the prompt cache off', async () => {
    world.llm.setScript({ replies: ['ok'] });
    await provider({ promptCache: 'off' }).complete({ messages: ask, tools: [weatherTool] });
    expect(JSON.stringify(world.llm.requests()[0].body)).not.toContain('cache_control');
  });

  it('returns tool_use as tool calls and sends results back as one merged user turn', async () => {
    const calls = [
      { name: 'get_weather', arguments: { city: 'Oslo' } },
      { name: 'get_weather', arguments: { city: 'Bergen' } },
    ];
    world.llm.setScript({ replies: [{ text: 'Checking.', toolCalls: calls }, 'Both sunny.'] });
    const first = await provider().complete({ messages: ask, tools: [weatherTool] });
    expect(first.stopReason).toBe('tool_calls');
    expect(first.text).toBe('Checking.');
    expect(first.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(calls);
    const [oslo, bergen] = first.toolCalls;
    const history: ChatMessage[] = [
      ...ask,
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { role: 'tool', content: 'clear', toolCallId: oslo.id },
      { role: 'tool', content: 'rain', toolCallId: bergen.id },
    ];
    expect((await provider().complete({ messages: history, tools: [weatherTool] })).text).toBe('Both sunny.');
    const sent = world.llm.requests()[1].body as { messages: unknown[]; tools: unknown[] };
    expect(sent.tools).toEqual([
      { name: 'get_weather', description: weatherTool.description, input_schema: weatherTool.parameters },
    ]);
    expect(sent.messages).toHaveLength(3);
    expect(sent.messages[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: oslo.id, name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: bergen.id },
      ],
    });
    expect(sent.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: oslo.id, content: 'clear' },
        {
          type: 'tool_result',
          tool_use_id: bergen.id,
          content: 'rain',
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('streams text deltas in order, with tool calls and usage', async () => {
    world.llm.setScript({
      replies: [
        { text: 'Let me look that up.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      ],
    });
    const deltas: string[] = [];
    const result = await provider().complete({
      messages: ask,
      tools: [weatherTool],
      onDelta: (text) => deltas.push(text),
    });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Let me look that up.');
    expect(result.toolCalls).toEqual([
      { id: expect.stringMatching(/^toolu_/), name: 'get_weather', arguments: { city: 'Oslo' } },
    ]);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage.completion_tokens).toBeGreaterThan(1);
  });

  it('retries an overloaded (529) reply and succeeds', async () => {
    world.llm.setScript({ replies: [{ status: 529, retryAfterMs: 10 }, 'recovered'] });
    expect((await provider({ maxRetries: 1 }).complete({ messages: ask })).text).toBe('recovered');
  });

  it('maps 429 after the last retry to llm_rate_limited', async () => {
    world.llm.setScript({
      replies: [
        { status: 429, retryAfterMs: 10 },
        { status: 429, retryAfterMs: 10 },
      ],
    });
    const error = await failureOf(provider({ maxRetries: 1 }).complete({ messages: ask }));
    expect(error).toMatchObject({ code: 'llm_rate_limited', status: 429 });
  });

  it('reports a reply slower than timeoutMs as llm_timeout, quickly', async () => {
    world.llm.setScript({ replies: [{ text: 'too slow', latencyMs: 10_000 }] });
    const started = Date.now();
    const error = await failureOf(
      provider({ timeoutMs: 150 }).complete({ messages: ask, onDelta: () => undefined }),
    );
    expect(error.code).toBe('llm_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    const key = 'sk-ant-CANARY-d0n7-l34k-7h15-k3y-0123456789';
    world.llm.setScript({ replies: [{ status: 401, error: 'invalid x-api-key {{api_key}}' }] });
    const error = await failureOf(provider({ apiKey: key }).complete({ messages: ask }));
    expect(error).toMatchObject({ code: 'llm_auth', status: 401 });
    expect(error.message).toContain('invalid x-api-key ***');
    for (const text of [
      error.message,
      error.stack ?? '',
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain(key);
    }
  });
});
