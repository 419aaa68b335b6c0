import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, PendingApproval } from '@app/contracts';
import { addCall, type OpenAiStack, startOpenAiStack } from '../openai/openai-stack';

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'The weather in a city.',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const weatherCall = (city: string) => `<call name="get_weather"><p>city: ${city}</p></call>`;
type WithRun = Anthropic.Message & {
  agentchassis: { run_id: string; session_id: string; approvals?: PendingApproval[] };
};

describe("Anthropic's Messages API with the official @anthropic-ai/sdk (gateway, executor, NATS, SQLite)", () => {
  let stack: OpenAiStack;
  let client: Anthropic;
  const anthropic = (apiKey: string) => new Anthropic({ apiKey, baseURL: stack.stack.base, maxRetries: 0 });

  beforeAll(async () => {
    stack = await startOpenAiStack(() => [
      { name: 'helper', allowed_tools: ['add'] },
      { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
    ]);
    client = anthropic(stack.chatKey);
  });
  afterAll(() => stack?.close());

  it('answers a message with the agent’s answer, the key taken from x-api-key', async () => {
    stack.script({
      rules: [
        { match: 'What is 2+3', reply: addCall(2, 3) },
        { match: '<result name="add"', reply: 'It is 5.' },
      ],
    });
    const message = (await client.messages.create({
      model: 'helper',
      max_tokens: 256,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'What is 2+3?' }],
    })) as WithRun;
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'helper',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'It is 5.' }],
    });
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message.agentchassis.run_id).toMatch(/^run_/);
    // the client's system prompt follows the agent's own, as a system message of its own (the agent's stays cacheable)
    const [, system] = (
      stack.stack.llm.requests()[0].body as { messages: { role: string; content: string }[] }
    ).messages;
    expect(system).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('streams a message as Anthropic’s events, which the SDK assembles', async () => {
    stack.script({ fallback: 'Counting: 1 2 3.' });
    const stream = client.messages.stream({
      model: 'helper',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Count.' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Counting: 1 2 3.' }]);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('asks for a tool_use and goes on with its tool_result, text before the call a block of its own', async () => {
    stack.script({
      rules: [
        { match: 'Weather in Oslo', reply: `Let me check.\n${weatherCall('Oslo')}` },
        { match: '<result name="get_weather"', reply: 'It is 21 degrees in Oslo.' },
      ],
    });
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Oslo?' };
    const first = await client.messages.create({
      model: 'helper',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [question],
    });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(first.content[0]).toMatchObject({ text: 'Let me check.' });
    const use = first.content[1] as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Oslo' } });
    const second = await client.messages.create({
      model: 'helper',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"celsius":21}' }] },
      ],
    });
    expect(second).toMatchObject({
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'It is 21 degrees in Oslo.' }],
    });
  });

  it('lists a call held for approval, which the runs API decides', async () => {
    stack.script({
      rules: [
        { match: 'Add 4 and 4', reply: addCall(4, 4) },
        { match: '<result name="add"', reply: 'Eight.' },
      ],
    });
    const held = (await client.messages.create({
      model: 'guarded',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Add 4 and 4.' }],
    })) as WithRun;
    const [approval] = held.agentchassis.approvals ?? [];
    expect(approval).toMatchObject({ function: 'add', arguments: { a: 4, b: 4 } });
    const decided = await fetch(`${stack.stack.base}/api/v1/runs/${held.agentchassis.run_id}/approve`, {
      method: 'POST',
      headers: { 'x-api-key': stack.chatKey, 'content-type': 'application/json' },
      body: JSON.stringify({ hash: approval.hash }),
    });
    expect(((await decided.json()) as AgentRunReply).reply).toBe('Eight.');
  });

  it('answers a wrong key, a refused quota and a bad block in Anthropic’s error shape', async () => {
    await expect(
      anthropic('ac_not_a_key_0123456789abcdef').messages.create({
        model: 'helper',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
    const broke = await stack.createKey(['chat'], { daily_cost_budget_usd: 0 });
    await expect(
      anthropic(broke).messages.create({
        model: 'helper',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toMatchObject({ status: 429, error: { error: { type: 'rate_limit_error' } } });
    await expect(
      client.messages.create({
        model: 'helper',
        max_tokens: 16,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
          },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error', message: expect.stringContaining('image') } },
    });
  });
});
