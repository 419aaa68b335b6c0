import { createLlmProvider, type LlmProvider, type LlmProviderKind } from '@app/llm';

export interface ModelOptions {
  model: string;
  /** The API's base URL, e.g. `http://localhost:11434/v1`; the provider's own when absent. */
  baseURL?: string;
  /** Not needed for a local OpenAI-compatible server. */
  apiKey?: string;
  /** Per HTTP attempt (ms). */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx and connection errors, with backoff. */
  maxRetries?: number;
  maxTokens?: number;
}

const DEFAULTS = { timeoutMs: 60_000, maxRetries: 2 };

/** Any OpenAI-compatible Chat Completions API: OpenAI itself, Ollama, vLLM, LocalAI, a proxy… */
export function openai(options: ModelOptions): LlmProvider {
  const isOpenAi = !options.baseURL || new URL(options.baseURL).hostname === 'api.openai.com';
  return model(isOpenAi ? 'openai' : 'openai-compatible', options);
}

/** Anthropic's Messages API. */
export function anthropic(options: ModelOptions): LlmProvider {
  return model('anthropic', options);
}

function model(provider: LlmProviderKind, options: ModelOptions): LlmProvider {
  return createLlmProvider({
    provider,
    baseUrl: options.baseURL,
    apiKey: options.apiKey,
    model: options.model,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    maxTokens: options.maxTokens,
  });
}
