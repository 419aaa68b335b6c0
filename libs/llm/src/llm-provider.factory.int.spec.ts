import { startScriptedLlm } from '@app/testing';
import { describe, expect, it } from 'vitest';
import type { LlmProviderConfig } from './llm-provider';
import { createLlmProvider } from './llm-provider.factory';

const base: LlmProviderConfig = { provider: 'openai', model: 'm', timeoutMs: 1_000, maxRetries: 0 };

describe('createLlmProvider', () => {
  it('refuses to build a provider for a keyed host without a key, naming LLM_API_KEY', () => {
    expect(() => createLlmProvider(base)).toThrow(/LLM_API_KEY is required for openai at api.openai.com/);
    expect(() => createLlmProvider({ ...base, provider: 'anthropic' })).toThrow(/LLM_API_KEY/);
  });

  it('needs LLM_BASE_URL for a compatible server or Azure, and a real URL', () => {
    expect(() => createLlmProvider({ ...base, provider: 'openai-compatible', apiKey: 'k' })).toThrow(
      /LLM_BASE_URL is required/,
    );
    expect(() => createLlmProvider({ ...base, provider: 'azure', apiKey: 'k' })).toThrow(
      /LLM_BASE_URL is required/,
    );
    expect(() => createLlmProvider({ ...base, baseUrl: 'not a url', apiKey: 'k' })).toThrow(
      /LLM_BASE_URL is not a URL/,
    );
  });

  it('builds providers named after LLM_PROVIDER, with the configured model', () => {
    expect(createLlmProvider({ ...base, apiKey: 'k' })).toMatchObject({ name: 'openai', model: 'm' });
    expect(createLlmProvider({ ...base, provider: 'ollama' })).toMatchObject({ name: 'ollama' });
    expect(createLlmProvider({ ...base, provider: 'anthropic', apiKey: 'k' })).toMatchObject({
      name: 'anthropic',
    });
  });

  it('sends a placeholder key to a keyless server, and `api-key` to Azure', async () => {
    const llm = await startScriptedLlm({ script: { fallback: 'ok' } });
    try {
      const keyless = createLlmProvider({ ...base, provider: 'ollama', baseUrl: llm.url });
      expect((await keyless.complete({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('ok');
      expect(llm.requests()[0].headers.authorization).toBe('***');
      const azure = createLlmProvider({ ...base, provider: 'azure', baseUrl: llm.url, apiKey: 'azure-key' });
      await azure.complete({ messages: [{ role: 'user', content: 'hi' }] });
      expect(llm.requests()[1].headers['api-key']).toBe('***');
    } finally {
      await llm.close();
    }
  });
});
