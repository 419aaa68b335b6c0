import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView } from '@app/contracts';
import { addCall, agentsClient, type OpenAiStack, startOpenAiStack } from './openai-stack';

type LlmMessage = { role: string; content: string };
const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer' } },
      required: ['city'],
    },
  },
};
const weatherCall = (city: string) => `<call name="get_weather"><p>city: ${city}</p></call>`;

describe('client tools and the OpenAI Agents SDK over the OpenAI-compatible API', () => {
  let openai: OpenAiStack;
  let client: OpenAI;

  beforeAll(async () => {
    openai = await startOpenAiStack(() => [
      { name: 'helper', allowed_tools: ['add'] },
      { name: 'native-helper', protocol: 'native', allowed_tools: ['add'] },
      { name: 'json-helper', protocol: 'json-action', allowed_tools: ['add'] },
    ]);
    client = openai.client();
    setTracingDisabled(true);
  });
  afterAll(() => openai?.close());

  const llmMessages = (i = -1) =>
    (openai.stack.llm.requests().at(i)?.body as { messages: LlmMessage[] }).messages;

  it('pauses for a client tool call and goes on with its result in the same session', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Oslo', reply: `Let me look.\n${weatherCall('Oslo')}` },
        { match: '<result name="get_weather"', reply: 'It is 21 degrees in Oslo.' },
      ],
    });
    const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Oslo?' };
    const first = await client.chat.completions
      .create({ model: 'helper', messages: [question], tools: [weatherTool] })
      .withResponse();
    expect(llmMessages()[0].content).toContain(
      'get_weather(city: string (City name), days?: integer): The weather in a city.',
    );
    const choice = first.data.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me look.');
    const [call] = choice.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    const sessionId = first.response.headers.get('x-session-id') as string;
    const paused = (await (
      await fetch(`${openai.stack.base}/api/v1/runs/${first.response.headers.get('x-run-id')}`, {
        headers: { authorization: `Bearer ${openai.chatKey}` },
      })
    ).json()) as RunView;
    expect(paused).toMatchObject({ status: 'awaiting_tool_results', finish_reason: 'client_tool_calls' });

    const answer: OpenAI.ChatCompletionMessageParam[] = [
      question,
      choice.message,
      { role: 'tool', tool_call_id: call.id, content: '{"celsius":21}' },
    ];
    const second = await client.chat.completions
      .create(
        { model: 'helper', messages: answer, tools: [weatherTool] },
        { headers: { 'X-Session-Id': sessionId } },
      )
      .withResponse();
    expect(second.data.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'It is 21 degrees in Oslo.' },
    });
    expect(second.response.headers.get('x-session-id')).toBe(sessionId);
    // the same run went on (one trace, one cost), not a new run whose input is the results
    const runId = first.response.headers.get('x-run-id') as string;
    expect(second.response.headers.get('x-run-id')).toBe(runId);
    expect((second.data as unknown as { agentchassis: object }).agentchassis).toMatchObject({
      run_id: runId,
      finish_reason: 'final',
    });
    expect(llmMessages().slice(1)).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: `Let me look.\n${weatherCall('Oslo')}` },
      {
        role: 'user',
        content: expect.stringMatching(/^<result name="get_weather">[\s\S]*celsius/),
      },
    ]);
    // The calls are answered once.
    await expect(
      client.chat.completions.create({ model: 'helper', messages: answer, tools: [weatherTool] }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('runs the platform calls of a mixed reply and hands back all results, statelessly', async () => {
    openai.script({
      rules: [
        { match: 'Add and weather', reply: `${addCall(2, 2)}\n${weatherCall('Rome')}` },
        { match: '<result name="add"', reply: 'Four, and sunny in Rome.' },
      ],
    });
    const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Add and weather?' };
    const first = await client.chat.completions.create({
      model: 'helper',
      messages: [question],
      tools: [weatherTool],
    });
    const calls = first.choices[0].message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(calls.map((c) => c.function.name)).toEqual(['get_weather']);
    const second = await client.chat.completions.create({
      model: 'helper',
      tools: [weatherTool],
      messages: [
        question,
        first.choices[0].message,
        { role: 'tool', tool_call_id: calls[0].id, content: 'sunny' },
      ],
    });
    expect(second.choices[0].message.content).toBe('Four, and sunny in Rome.');
    const results = llmMessages().at(-1)?.content ?? '';
    expect(results).toMatch(
      /<result name="add">[\s\S]*4[\s\S]*<result name="get_weather">\n<message>sunny<\/message>/,
    );
  });

  it('streams a client tool call as standard tool_calls the SDK helper assembles', async () => {
    openai.script({ rules: [{ match: 'Weather in Lima', reply: weatherCall('Lima') }] });
    const stream = client.chat.completions.stream({
      model: 'helper',
      messages: [{ role: 'user', content: 'Weather in Lima?' }],
      tools: [weatherTool],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    const [call] = final.choices[0].message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(call).toMatchObject({
      id: expect.stringMatching(/^call_run_/),
      function: { name: 'get_weather' },
    });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Lima' });
    const { response } = await client.chat.completions
      .create({
        model: 'helper',
        messages: [{ role: 'user', content: 'Weather in Lima?' }],
        tools: [weatherTool],
        stream: true,
      })
      .withResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-run-id')).toMatch(/^run_/);
    expect(response.headers.get('x-session-id')).toMatch(/^ses_/);
    await response.text();
  });

  it('pauses for a client tool with the json-action protocol too', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Bern', reply: '{"type":"action","tool":"get_weather","args":{"city":"Bern"}}' },
        { match: '<result name="get_weather"', reply: '{"type":"final","answer":"Snow in Bern."}' },
      ],
    });
    const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Bern?' };
    const first = await client.chat.completions.create({
      model: 'json-helper',
      messages: [question],
      tools: [weatherTool],
    });
    expect(llmMessages()[0].content).toContain(
      'get_weather(city: string (City name), days?: integer): The weather in a city.',
    );
    const [call] = first.choices[0].message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Bern' });
    const second = await client.chat.completions.create({
      model: 'json-helper',
      tools: [weatherTool],
      messages: [
        question,
        first.choices[0].message,
        { role: 'tool', tool_call_id: call.id, content: 'snow' },
      ],
    });
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Snow in Bern.' } });
  });

  it('refuses a client tool named like a platform function, a missing result and a native agent', async () => {
    const clash = {
      type: 'function' as const,
      function: { name: 'add', parameters: { type: 'object', properties: {} } },
    };
    await expect(
      client.chat.completions.create({
        model: 'helper',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [clash],
      }),
    ).rejects.toMatchObject({
      status: 400,
      param: 'tools[0].function.name',
      message: expect.stringContaining("'add'"),
    });
    await expect(
      client.chat.completions.create({
        model: 'native-helper',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [weatherTool],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'tools' });
    await expect(
      client.chat.completions.create({
        model: 'helper',
        messages: [{ role: 'tool', tool_call_id: 'call_abc', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 400, param: 'messages[0].tool_call_id' });
  });

  it('serves the OpenAI Agents SDK as its model provider, its own tool run by the SDK', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Paris', reply: weatherCall('Paris') },
        { match: '<result name="get_weather"', reply: 'Paris: {{last}}' },
      ],
    });
    const seen: unknown[] = [];
    const getWeather = tool({
      name: 'get_weather',
      description: 'The weather in a city.',
      strict: false,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: true,
      },
      execute: async (input) => (seen.push(input), 'rainy'),
    });
    const agent = new Agent({
      name: 'assistant',
      instructions: 'Be brief.',
      model: new OpenAIChatCompletionsModel(agentsClient(openai), 'helper'),
      tools: [getWeather],
    });
    const result = await run(agent, 'Weather in Paris?');
    expect(seen).toEqual([{ city: 'Paris' }]);
    expect(result.finalOutput).toMatch(/^Paris: <result name="get_weather">[\s\S]*rainy/);
    // the SDK's instructions follow the agent's prompt as a system message of their own (the agent's prompt stays cacheable)
    expect(llmMessages()[1]).toEqual({ role: 'system', content: 'Be brief.' });
    // Streamed, through the SDK's own chunk reader.
    const streamed = await run(agent, 'Weather in Paris?', { stream: true });
    for await (const _event of streamed) void _event;
    await streamed.completed;
    expect(seen).toHaveLength(2);
    expect(streamed.finalOutput).toMatch(/^Paris: <result name="get_weather">[\s\S]*rainy/);
  });
});
