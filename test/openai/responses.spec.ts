import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunView } from '@app/contracts';
import { addCall, agentsClient, type OpenAiStack, startOpenAiStack } from './openai-stack';

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};
const weatherCall = (city: string) => `<call name="get_weather"><p>city: ${city}</p></call>`;

const runIdOf = (response: OpenAI.Responses.Response) =>
  (response as unknown as { agentchassis: { run_id: string } }).agentchassis.run_id;

/** The text of the message items, in order. */
const texts = (response: OpenAI.Responses.Response) =>
  response.output.flatMap((item) =>
    item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : [],
  );

describe('the Responses API with the official openai client and @openai/agents (gateway, executor, NATS, SQLite)', () => {
  let openai: OpenAiStack;
  let client: OpenAI;

  beforeAll(async () => {
    openai = await startOpenAiStack(() => [
      { name: 'helper', allowed_tools: ['add'] },
      { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
    ]);
    client = openai.client();
    setTracingDisabled(true);
  });
  afterAll(() => openai?.close());

  const runOf = async (runId: string) =>
    (await (
      await fetch(`${openai.stack.base}/api/v1/runs/${runId}`, {
        headers: { authorization: `Bearer ${openai.chatKey}` },
      })
    ).json()) as RunView;

  it('answers a response with the run’s answer and usage, and serves it again by id', async () => {
    openai.script({
      rules: [
        { match: 'What is 2+3', reply: addCall(2, 3) },
        { match: '<result name="add"', reply: 'It is 5.' },
      ],
    });
    const response = await client.responses.create({
      model: 'helper',
      input: 'What is 2+3?',
      instructions: 'Be brief.',
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'helper',
      instructions: 'Be brief.',
      output_text: 'It is 5.',
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(0);
    expect(openai.stack.llm.requests()[0].body).toMatchObject({
      messages: expect.arrayContaining([
        expect.objectContaining({ content: expect.stringContaining('Be brief.') }),
      ]),
    });
    const again = await client.responses.retrieve(response.id);
    expect(again).toMatchObject({ id: response.id, status: 'completed', output_text: 'It is 5.' });
    const items = await client.responses.inputItems.list(response.id);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
  });

  it('continues a session with previous_response_id', async () => {
    openai.script({
      rules: [
        { match: 'I am Ada', reply: 'Hello Ada.' },
        { match: 'Who am I', reply: 'You are Ada.' },
      ],
    });
    const first = await client.responses.create({ model: 'helper', input: 'I am Ada.' });
    const second = await client.responses.create({
      model: 'helper',
      input: 'Who am I?',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('You are Ada.');
    const conversation = (openai.stack.llm.requests().at(-1)?.body as { messages: { content: string }[] })
      .messages;
    expect(conversation.map((m) => m.content)).toEqual(expect.arrayContaining(['I am Ada.', 'Hello Ada.']));
  });

  it('streams a response as the SDK’s events, ending with response.completed', async () => {
    openai.script({ fallback: 'Counting: 1 2 3.' });
    const stream = client.responses.stream({ model: 'helper', input: 'Count.' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Counting: 1 2 3.');
    expect(types[0]).toBe('response.created');
    expect(types).toEqual(
      expect.arrayContaining([
        'response.output_item.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.output_item.done',
      ]),
    );
    expect(types.at(-1)).toBe('response.completed');
  });

  it('hands a client function call back, and its output continues the run’s session, text kept apart', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Oslo', reply: `Let me check.\n${weatherCall('Oslo')}` },
        { match: '<result name="get_weather"', reply: 'It is 21 degrees in Oslo.' },
      ],
    });
    const first = await client.responses.create({
      model: 'helper',
      input: 'Weather in Oslo?',
      tools: [weatherTool],
    });
    expect(first.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(texts(first)).toEqual(['Let me check.']);
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ name: 'get_weather', call_id: expect.stringMatching(/^call_run_/) });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Oslo' });
    expect(await runOf(runIdOf(first))).toMatchObject({ status: 'awaiting_tool_results' });

    const second = await client.responses.create({
      model: 'helper',
      previous_response_id: first.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"celsius":21}' }],
    });
    expect(second.output_text).toBe('It is 21 degrees in Oslo.');
    expect(texts(second)).toEqual(['It is 21 degrees in Oslo.']);
    // the same run went on: one trace (the call and what the caller returned), one usage
    expect(runIdOf(second)).toBe(runIdOf(first));
    const run = await runOf(runIdOf(second));
    expect(run).toMatchObject({
      status: 'completed',
      input: 'Weather in Oslo?',
      reply: 'It is 21 degrees in Oslo.',
    });
    expect(run.trace.map((step) => step.kind)).toEqual(['client_tool_call', 'final']);
    expect(run.trace[0].observation).toContain('21');
    expect(second.usage!.total_tokens).toBeGreaterThan(first.usage!.total_tokens);
    const stream = client.responses.stream({
      model: 'helper',
      input: 'Weather in Oslo?',
      tools: [weatherTool],
    });
    const streamed = await stream.finalResponse();
    expect(streamed.output.map((item) => item.type)).toEqual(['message', 'function_call']);
  });

  it('shows a call held for approval as an mcp_approval_request, and runs it on approval', async () => {
    openai.script({
      rules: [
        { match: 'Add 4 and 4', reply: addCall(4, 4) },
        { match: '<result name="add"', reply: 'Eight.' },
      ],
    });
    const held = await client.responses.create({ model: 'guarded', input: 'Add 4 and 4.' });
    const request = held.output.find((item) => item.type === 'mcp_approval_request');
    expect(request).toMatchObject({ name: 'add', server_label: 'agentchassis' });
    expect(JSON.parse((request as { arguments: string }).arguments)).toEqual({ a: 4, b: 4 });
    const approved = await client.responses.create({
      model: 'guarded',
      previous_response_id: held.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request!.id, approve: true }],
    });
    expect(approved.output_text).toBe('Eight.');
  });

  it('answers a wrong key, a refused quota and a bad input in OpenAI’s error shape', async () => {
    await expect(
      openai.client('ac_not_a_key_0123456789abcdef').responses.create({ model: 'helper', input: 'Hi' }),
    ).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    const broke = await openai.createKey(['chat'], { daily_cost_budget_usd: 0 });
    openai.script({ fallback: 'Hi.' });
    await expect(
      openai.client(broke).responses.create({ model: 'helper', input: 'Hi' }),
    ).rejects.toMatchObject({
      status: 429,
      code: 'insufficient_quota',
    });
    await expect(
      client.responses.create({
        model: 'helper',
        input: [
          { role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' }] },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'input[0].content[0]' });
  });

  it('serves @openai/agents as its Responses model provider, the SDK running its own tool', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Rome', reply: weatherCall('Rome') },
        { match: '<result name="get_weather"', reply: 'Sunny in Rome.' },
      ],
    });
    const getWeather = tool({
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const agent = new Agent({
      name: 'assistant',
      model: new OpenAIResponsesModel(agentsClient(openai) as never, 'helper'),
      tools: [getWeather],
    });
    const result = await run(agent, 'Weather in Rome?');
    expect(result.finalOutput).toBe('Sunny in Rome.');
  });
});
