// The OpenAI-compatible API on PostgreSQL: a stateless history stored as a session, a client tool round trip.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView, SessionView } from '@app/contracts';
import { MIGRATED_DATABASES } from '@app/testing';
import { type OpenAiStack, startOpenAiStack } from './openai-stack';

const postgres = MIGRATED_DATABASES.find((d) => d.name === 'PostgreSQL')!;

describe('the OpenAI-compatible API on PostgreSQL (gateway and executor processes, real NATS)', () => {
  let openai: OpenAiStack;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await postgres.create();
    drop = database.drop;
    openai = await startOpenAiStack(() => [{ name: 'helper', allowed_tools: ['add'] }], {
      DATABASE_URL: database.url,
    });
  });
  afterAll(async () => {
    await openai?.close();
    await drop?.();
  });

  const get = async <T>(path: string) =>
    (await (
      await fetch(`${openai.stack.base}${path}`, { headers: { authorization: `Bearer ${openai.chatKey}` } })
    ).json()) as T;

  it('stores a stateless history as a session, pauses for a client tool and goes on in that session', async () => {
    openai.script({
      rules: [
        { match: 'Weather in Oslo', reply: '<call name="get_weather"><p>city: Oslo</p></call>' },
        { match: '<result name="get_weather"', reply: 'Mild, Ada.' },
      ],
    });
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hello Ada.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ];
    const client = openai.client();
    const first = await client.chat.completions.create({ model: 'helper', messages, tools }).withResponse();
    const [call] = first.data.choices[0].message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    const sessionId = first.response.headers.get('x-session-id') as string;
    const second = await client.chat.completions.create({
      model: 'helper',
      tools,
      messages: [
        ...messages,
        first.data.choices[0].message,
        { role: 'tool', tool_call_id: call.id, content: 'mild' },
      ],
    });
    expect(second.choices[0].message.content).toBe('Mild, Ada.');
    const session = await get<SessionView>(`/api/v1/sessions/${sessionId}`);
    // one turn of the session: the question and the answer (the call and its result are the run's trace)
    expect(session.messages.map((m) => [m.role, m.content.slice(0, 24)])).toEqual([
      ['user', 'I am Ada.'],
      ['assistant', 'Hello Ada.'],
      ['user', 'Weather in Oslo?'],
      ['assistant', 'Mild, Ada.'],
    ]);
    // the run that paused went on with the result: one run, one trace
    const run = await get<RunView>(`/api/v1/runs/${first.response.headers.get('x-run-id')}`);
    expect(run).toMatchObject({ status: 'completed', finish_reason: 'final', reply: 'Mild, Ada.' });
    expect(run.trace.map((step) => step.kind)).toEqual(['client_tool_call', 'final']);
  });
});
