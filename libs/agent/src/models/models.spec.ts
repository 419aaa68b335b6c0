import { describe, expect, it } from 'vitest';
import { anthropic, openai } from './models';

describe('model factories', () => {
  it('names the provider by where it points', () => {
    expect(openai({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3' })).toMatchObject({
      name: 'openai-compatible',
      model: 'llama3',
    });
    expect(openai({ apiKey: 'sk-test', model: 'gpt-4o-mini' })).toMatchObject({ name: 'openai' });
    expect(anthropic({ apiKey: 'sk-ant-test', model: 'claude-sonnet' })).toMatchObject({
      name: 'anthropic',
      model: 'claude-sonnet',
    });
  });

  it('refuses a provider that checks keys without one', () => {
    expect(() => openai({ model: 'gpt-4o-mini' })).toThrow(/API_KEY is required/);
    expect(() => anthropic({ model: 'claude-sonnet' })).toThrow(/API_KEY is required/);
  });
});
