import { describe, expect, it } from 'vitest';
import { AppError, InvalidParamsError, NotFoundError } from '@app/contracts';
import { openAiError, openAiParam } from './openai-error.filter';

describe('openAiError', () => {
  it('names the OpenAI request field of a platform field', () => {
    expect(openAiParam('client_tools[2].name')).toBe('tools[2].function.name');
    expect(openAiParam('tool_results')).toBe('messages');
    expect(openAiParam('messages.3.content')).toBe('messages[3].content');
    expect(openAiParam('tools.0.function.name')).toBe('tools[0].function.name');
    expect(openAiParam('agent')).toBe('model');
    expect(openAiParam('session_id')).toBe('X-Session-Id');
  });

  it('answers an unknown agent as model_not_found, limits with their code and Retry-After', () => {
    expect(openAiError(new NotFoundError('agent', 'nobody'))).toEqual({
      status: 404,
      body: { error: expect.objectContaining({ param: 'model', code: 'model_not_found' }) },
    });
    const quota = openAiError(
      new AppError('rate_limited', 'daily token quota used up', { retry_after_s: 60 }),
    );
    expect(quota).toMatchObject({
      status: 429,
      retryAfter: 60,
      body: { error: { code: 'insufficient_quota' } },
    });
    const bad = openAiError(new InvalidParamsError([{ field: 'messages.0.role', message: 'bad' }]));
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', param: 'messages[0].role' } },
    });
    expect(openAiError(new Error('secret detail'))).toEqual({
      status: 500,
      body: { error: { message: 'internal error', type: 'server_error', param: null, code: 'internal' } },
    });
  });
});
