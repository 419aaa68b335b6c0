import { type AgentSubscriber, HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Message, Tool } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView } from '@app/contracts';
import { addCall, type OpenAiStack, startOpenAiStack } from '../openai/openai-stack';

const weatherTool: Tool = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const weatherCall = (city: string) => `<call name="get_weather"><p>city: ${city}</p></call>`;

describe('AG-UI at /ag-ui with the official @ag-ui/client (gateway, executor, NATS, SQLite)', () => {
  let stack: OpenAiStack;

  beforeAll(async () => {
    stack = await startOpenAiStack(() => [
      { name: 'helper', allowed_tools: ['add'] },
      { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
    ]);
  });
  afterAll(() => stack?.close());

  const agentOf = (path: string, key = stack.chatKey, messages: Message[] = []) =>
    new HttpAgent({
      url: `${stack.stack.base}${path}`,
      headers: { authorization: `Bearer ${key}` },
      initialMessages: messages,
    });
  /** Runs the agent once, recording the events' types and the run's outcome. */
  async function runOnce(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
    const types: string[] = [];
    const finished: { outcome?: string; interrupts?: { id: string; metadata?: Record<string, unknown> }[] } =
      {};
    const subscriber: AgentSubscriber = {
      onEvent: ({ event }: { event: BaseEvent }) => void types.push(event.type),
      onRunFinishedEvent: (params) => {
        finished.outcome = params.outcome;
        if (params.outcome === 'interrupt') finished.interrupts = params.interrupts;
      },
    };
    const result = await agent.runAgent(parameters, subscriber);
    return { types, finished, result };
  }
  const runView = async (runId: string) =>
    (await (
      await fetch(`${stack.stack.base}/api/v1/runs/${runId}`, {
        headers: { authorization: `Bearer ${stack.chatKey}` },
      })
    ).json()) as RunView;

  it('streams a run as AG-UI events: the platform’s call and its result, then the answer', async () => {
    stack.script({
      rules: [
        { match: 'What is 2+3', reply: `Adding.\n${addCall(2, 3)}` },
        { match: '<result name="add"', reply: 'It is 5.' },
      ],
    });
    const agent = agentOf('/ag-ui/helper', stack.chatKey, [
      { id: 'u1', role: 'user', content: 'What is 2+3?' },
    ]);
    const { types, finished } = await runOnce(agent);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types).toEqual(
      expect.arrayContaining([
        'STATE_SNAPSHOT',
        'TOOL_CALL_START',
        'TOOL_CALL_RESULT',
        'TEXT_MESSAGE_CONTENT',
      ]),
    );
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(finished.outcome).toBe('success');
    const texts = agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
    // the step's text before its call and the answer are two messages, never run together
    expect(texts).toEqual(expect.arrayContaining(['Adding.', 'It is 5.']));
    expect(agent.state).toMatchObject({
      run_id: expect.stringMatching(/^run_/),
      session_id: expect.stringMatching(/^ses_/),
    });
  });

  it('hands a frontend tool call to the client, whose result carries the same platform run on', async () => {
    stack.script({
      rules: [
        { match: 'Weather in Oslo', reply: `Let me check.\n${weatherCall('Oslo')}` },
        { match: '<result name="get_weather"', reply: 'It is 21 degrees in Oslo.' },
      ],
    });
    const agent = agentOf('/ag-ui/helper', stack.chatKey, [
      { id: 'u1', role: 'user', content: 'Weather in Oslo?' },
    ]);
    const first = await runOnce(agent, { tools: [weatherTool] });
    expect(first.finished.outcome).toBe('success');
    const asked = agent.messages.find((m) => m.role === 'assistant' && m.toolCalls?.length);
    const call = asked?.role === 'assistant' ? asked.toolCalls![0] : undefined;
    expect(call).toMatchObject({ function: { name: 'get_weather' } });
    expect(JSON.parse(call!.function.arguments)).toEqual({ city: 'Oslo' });
    const runId = (agent.state as { run_id: string }).run_id;
    agent.addMessage({ id: 't1', role: 'tool', toolCallId: call!.id, content: '{"celsius":21}' });
    await runOnce(agent, { tools: [weatherTool] });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 21 degrees in Oslo.' });
    expect(await runView(runId)).toMatchObject({ status: 'completed', reply: 'It is 21 degrees in Oslo.' });
  });

  it('ends a run whose call is held for approval with an interrupt, and resumes it on approval', async () => {
    stack.script({
      rules: [
        { match: 'Add 4 and 4', reply: addCall(4, 4) },
        { match: '<result name="add"', reply: 'Eight.' },
      ],
    });
    const agent = agentOf('/ag-ui/guarded', stack.chatKey, [
      { id: 'u1', role: 'user', content: 'Add 4 and 4.' },
    ]);
    const held = await runOnce(agent);
    expect(held.finished.outcome).toBe('interrupt');
    const [interrupt] = held.finished.interrupts ?? [];
    expect(interrupt.metadata).toMatchObject({ function: 'add', arguments: { a: 4, b: 4 } });
    await runOnce(agent, {
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approve: true } }],
    });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Eight.' });
  });

  it('refuses a wrong key and a spent budget before the stream begins', async () => {
    const message: Message[] = [{ id: 'u1', role: 'user', content: 'Hi' }];
    await expect(runOnce(agentOf('/ag-ui/helper', 'ac_not_a_key_0123456789abcdef', message))).rejects.toThrow(
      /401/,
    );
    const broke = await stack.createKey(['chat'], { daily_cost_budget_usd: 0 });
    await expect(runOnce(agentOf('/ag-ui/helper', broke, message))).rejects.toThrow(/429/);
  });
});
