import { describe, expect, it } from 'vitest';
import { type AgentEvent, type AgentRunReply, AppError } from '@app/contracts';
import { ChatCompletionChunks } from './openai-stream';

const event = (type: AgentEvent['type'], data: unknown): AgentEvent => ({
  type,
  run_id: 'run_1',
  seq: 1,
  data,
});
const parse = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => block.replace(/^data: /, ''))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));

const reply: AgentRunReply = {
  session_id: 'ses_1',
  run_id: 'run_1',
  reply: 'Let me look.',
  function_calls: [],
  finish_reason: 'client_tool_calls',
  usage: { prompt_tokens: 10, completion_tokens: 5 },
  client_tool_calls: [{ id: 'call_run_1_0', name: 'get_weather', arguments: { city: 'Oslo' } }],
};

describe('ChatCompletionChunks', () => {
  const chunks = () => new ChatCompletionChunks('run_1', 'helper', true, 1_700_000_000);

  it('opens with the role, and shows text as written and server-side activity only in the extension', () => {
    const format = chunks();
    const start = event('run_start', { run_id: 'run_1', session_id: 'ses_1' });
    expect(format.headers(start)).toEqual({ 'x-run-id': 'run_1', 'x-session-id': 'ses_1' });
    expect(parse(format.event(start))).toEqual([
      expect.objectContaining({
        id: 'chatcmpl-run_1',
        object: 'chat.completion.chunk',
        choices: [
          { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null },
        ],
      }),
    ]);
    expect(parse(format.event(event('delta', { step: 1, text: 'Adding' })))).toEqual([
      expect.objectContaining({ choices: [], agentchassis: { event: 'delta', step: 1, text: 'Adding' } }),
    ]);
    const [call] = parse(
      format.event(event('tool_call', { step: 1, index: 0, name: 'add', args: { a: 1 } })),
    );
    expect(call).toMatchObject({
      choices: [],
      agentchassis: { event: 'tool_call', name: 'add', arguments: { a: 1 } },
    });
  });

  it('ends with the content, the client tool calls, the finish reason, usage and [DONE]', () => {
    const parts = parse(chunks().end(reply));
    expect(parts.map((p) => (p === '[DONE]' ? p : (p.choices[0]?.delta ?? 'usage')))).toEqual([
      { content: 'Let me look.' },
      {
        tool_calls: [
          {
            index: 0,
            id: 'call_run_1_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      {},
      'usage',
      '[DONE]',
    ]);
    expect(parts[2].choices[0].finish_reason).toBe('tool_calls');
    expect(parts[3]).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it('leaves usage out unless asked, the cost in the extension when priced, and writes an error as OpenAI error data', () => {
    const format = new ChatCompletionChunks('run_1', 'helper', false);
    expect(
      parse(format.end({ ...reply, client_tool_calls: undefined, finish_reason: 'max_steps' })).at(-2),
    ).toMatchObject({
      choices: [{ finish_reason: 'length' }],
      agentchassis: { event: 'run_end', finish_reason: 'max_steps' },
    });
    expect(parse(format.end(reply)).at(-2).agentchassis).not.toHaveProperty('cost_usd');
    const priced = { ...reply, usage: { ...reply.usage, cost_usd: 0.0042 } };
    expect(parse(format.end(priced)).at(-2)).toMatchObject({
      agentchassis: { event: 'run_end', cost_usd: 0.0042 },
    });
    expect(parse(format.error(new AppError('timeout', 'too slow')))).toEqual([
      { error: { message: 'too slow', type: 'server_error', param: null, code: 'timeout' } },
    ]);
  });
});
