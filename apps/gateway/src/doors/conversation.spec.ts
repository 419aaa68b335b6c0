import { describe, expect, it } from 'vitest';
import { ChatCompletionRequest, InvalidParamsError, parseDto } from '@app/contracts';
import { toRunRequest } from './conversation';

const body = (fields: Record<string, unknown>) =>
  parseDto(ChatCompletionRequest, { model: 'helper', ...fields }, 'chat completion request', {
    unknown: 'strip',
  });

describe('toRunRequest', () => {
  it('makes the trailing user messages the turn, earlier ones the history, system ones instructions', () => {
    const request = toRunRequest(
      body({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'I am Ada.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'done' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'developer', content: [{ type: 'text', text: 'No emoji.' }] },
          { role: 'user', content: 'Who' },
          { role: 'user', content: [{ type: 'text', text: 'am I?' }] },
        ],
        temperature: 0.3,
        user: 'someone',
      }),
    );
    expect(request).toEqual({
      message: 'Who\n\nam I?',
      agent: 'helper',
      instructions: 'Be brief.\n\nNo emoji.',
      history: [
        { role: 'user', content: 'I am Ada.' },
        { role: 'assistant', content: 'Called tool f (c1) with {}' },
        { role: 'user', content: 'Tool result (c1): done' },
        { role: 'assistant', content: 'Hello.' },
      ],
    });
  });

  it('sends only the new messages with a session, and tool messages as results', () => {
    const request = toRunRequest(
      body({
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'tool', tool_call_id: 'call_run_abc_0', content: '{"c":1}' },
          { role: 'user', content: 'And tomorrow?' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      }),
      'ses_1',
    );
    expect(request).toEqual({
      message: 'And tomorrow?',
      agent: 'helper',
      session_id: 'ses_1',
      client_tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
      tool_results: [{ tool_call_id: 'call_run_abc_0', content: '{"c":1}' }],
    });
  });

  it("offers no client tools with tool_choice 'none'", () => {
    const request = toRunRequest(
      body({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'f' } }],
        tool_choice: 'none',
      }),
    );
    expect(request.client_tools).toBeUndefined();
  });

  it('refuses a conversation ending with the assistant, and a tool result this server never asked for', () => {
    expect(() => toRunRequest(body({ messages: [{ role: 'assistant', content: 'Hi' }] }))).toThrow(
      /last message must be a user or tool message/,
    );
    const unknown = () =>
      toRunRequest(body({ messages: [{ role: 'tool', tool_call_id: 'abc', content: 'x' }] }));
    expect(unknown).toThrow(InvalidParamsError);
    expect(unknown).toThrow(/messages\[0\]\.tool_call_id/);
  });

  it('refuses unsupported parameters at the boundary, naming them, and ignores unknown ones', () => {
    const bad = () =>
      body({
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
        n: 2,
        logprobs: true,
        response_format: { type: 'json_object' },
        tool_choice: 'required',
        functions: [{ name: 'f' }],
      });
    expect(bad).toThrow(InvalidParamsError);
    try {
      bad();
    } catch (err) {
      expect((err as InvalidParamsError).fields.map((f) => f.field).sort()).toEqual([
        'functions',
        'logprobs',
        'messages.0.content',
        'n',
        'response_format',
        'tool_choice',
      ]);
    }
    expect(
      body({ messages: [{ role: 'user', content: 'Hi' }], seed: 1, top_p: 1, store: true }),
    ).not.toHaveProperty('seed');
  });

  it.each([null, '', []])(
    'names the client field of a user message with no text (content: %j)',
    (content) => {
      const empty = () =>
        toRunRequest(
          body({
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content },
            ],
          }),
        );
      expect(empty).toThrow(InvalidParamsError);
      expect(empty).toThrow(
        'invalid chat completion request: messages[1].content: a user message needs text',
      );
    },
  );
});
