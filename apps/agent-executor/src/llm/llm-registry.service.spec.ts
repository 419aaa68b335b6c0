import { describe, expect, it } from 'vitest';
import { loadConfig } from '@app/config';
import { Logger } from '@app/observability';
import { HealthChecks } from '@app/runtime';
import { LlmRegistry } from './llm-registry.service';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

/** The `llm` state an executor with this environment reports in its health ping. */
function llmState(env: Record<string, string>) {
  const checks = new HealthChecks();
  new LlmRegistry(loadConfig(env), quiet, checks).onApplicationBootstrap();
  return checks.states().llm;
}

describe('LlmRegistry: is the model configured?', () => {
  it('is not without an API key for a provider that checks one, naming the setting', () => {
    expect(llmState({})).toEqual({
      state: 'not configured',
      reason: 'LLM_API_KEY is required for openai at api.openai.com',
    });
    expect(llmState({ LLM_PROVIDER: 'anthropic' })).toMatchObject({ state: 'not configured' });
  });

  it('is not without a base URL for an OpenAI-compatible server', () => {
    expect(llmState({ LLM_PROVIDER: 'openai-compatible' })).toEqual({
      state: 'not configured',
      reason: 'LLM_BASE_URL is required when LLM_PROVIDER is openai-compatible',
    });
  });

  it('is with a key, or with a compatible server that needs none', () => {
    expect(llmState({ LLM_API_KEY: 'sk-test-key' })).toEqual({ state: 'ok' });
    expect(llmState({ LLM_PROVIDER: 'openai-compatible', LLM_BASE_URL: 'http://127.0.0.1:4010/v1' })).toEqual(
      {
        state: 'ok',
      },
    );
    expect(llmState({ LLM_PROVIDER: 'ollama' })).toEqual({ state: 'ok' });
  });
});
