import { describe, expect, it } from 'vitest';
import { AgentNotFoundError, AppError, InvalidParamsError, NotFoundError } from '@app/contracts';
import { TokenQuotaUsedUpError } from '@app/limits';
import { openAiError, openAiParam } from './openai-error-shape';

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
    expect(openAiError(new AgentNotFoundError('nobody'))).toEqual({
      status: 404,
      body: { error: expect.objectContaining({ param: 'model', code: 'model_not_found' }) },
    });
    // as the executor's answer over the bus arrives: rebuilt from its body, the class lost
    const overTheBus = AppError.fromBody(new AgentNotFoundError('nobody').toBody());
    expect(openAiError(overTheBus).body.error).toMatchObject({ code: 'model_not_found' });
    expect(openAiError(new NotFoundError('session', 'ses_1')).body.error).toMatchObject({
      code: 'not_found',
    });
    const quota = openAiError(new TokenQuotaUsedUpError(1_000, 60));
    expect(quota).toMatchObject({
      status: 429,
      body: { error: { code: 'insufficient_quota' } },
    });
    expect(
      openAiError(new AppError('rate_limited', 'rate limit of 600 requests per minute exceeded')),
    ).toMatchObject({
      body: { error: { code: 'rate_limit_exceeded' } },
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
