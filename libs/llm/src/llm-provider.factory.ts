import { AnthropicProvider } from './anthropic.provider';
import type { LlmProvider, LlmProviderConfig, LlmProviderKind } from './llm-provider';
import { LlmError } from './llm.errors';
import { OpenAiProvider } from './openai.provider';

const DEFAULT_BASE_URLS: Partial<Record<LlmProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://localhost:11434/v1',
  anthropic: 'https://api.anthropic.com',
};

/** Hosts that really check the key; anything else (Ollama, vLLM, LocalAI, a proxy) gets a placeholder. */
const KEYED_HOSTS = new Set(['api.openai.com', 'api.anthropic.com']);
export const PLACEHOLDER_API_KEY = 'no-key-needed';
const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/**
 * The one place a provider is chosen. `provider`, `baseUrl`, `apiKey` and `model` are enough to
 * point the executor at any OpenAI-compatible server. Throws an `llm_not_configured` LlmError,
 * naming the setting, when the configuration cannot work: a key for a provider that checks one,
 * a base URL for a compatible server.
 */
export function createLlmProvider(config: LlmProviderConfig): LlmProvider {
  const baseUrl = resolveBaseUrl(config);
  const host = new URL(baseUrl).hostname;
  const apiKey = config.apiKey || placeholderKey(host, config.provider);
  if (config.provider === 'anthropic') {
    return new AnthropicProvider({
      baseUrl: baseUrl.replace(/\/v1\/?$/, ''),
      apiKey,
      model: config.model,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
      maxTokens: config.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      proxy: config.proxy,
      promptCache: config.promptCache !== 'off',
    });
  }
  return new OpenAiProvider({
    name: config.provider,
    baseUrl,
    apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    maxTokens: config.maxTokens,
    maxTokensField: host === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens',
    // Azure's v1 endpoint (https://<resource>.openai.azure.com/openai/v1) reads its key from `api-key`.
    defaultHeaders: config.provider === 'azure' ? { 'api-key': apiKey } : undefined,
    proxy: config.proxy,
    promptCacheKey: takesPromptCacheKey(config, host),
  });
}

/** OpenAI's own API and Azure take `prompt_cache_key`; another compatible server only when asked (`on`). */
function takesPromptCacheKey(config: LlmProviderConfig, host: string): boolean {
  const mode = config.promptCache ?? 'auto';
  if (mode !== 'auto') return mode === 'on';
  return host === 'api.openai.com' || config.provider === 'azure';
}

function resolveBaseUrl(config: LlmProviderConfig): string {
  const baseUrl = config.baseUrl || DEFAULT_BASE_URLS[config.provider];
  if (!baseUrl) throw notConfigured(`LLM_BASE_URL is required when LLM_PROVIDER is ${config.provider}`);
  if (!URL.canParse(baseUrl)) throw notConfigured(`LLM_BASE_URL is not a URL: ${baseUrl}`);
  return baseUrl;
}

function placeholderKey(host: string, provider: LlmProviderKind): string {
  if (KEYED_HOSTS.has(host) || provider === 'azure') {
    throw notConfigured(`LLM_API_KEY is required for ${provider} at ${host}`);
  }
  return PLACEHOLDER_API_KEY;
}

function notConfigured(message: string): LlmError {
  return new LlmError('llm_not_configured', message);
}
