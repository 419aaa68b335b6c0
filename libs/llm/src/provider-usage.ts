import type { TokenUsage } from './llm-provider';

/** The cache's counts, only when the provider reported some (a usage without caching keeps its old shape). */
function withCache(usage: TokenUsage, cached: number, written: number): TokenUsage {
  return {
    ...usage,
    ...(cached > 0 ? { cached_prompt_tokens: cached } : {}),
    ...(written > 0 ? { cache_write_tokens: written } : {}),
  };
}

interface OpenAiUsageFields {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
}

/**
 * Chat Completions' usage: `prompt_tokens` already counts the cached tokens
 * (`prompt_tokens_details.cached_tokens`) and, on models that report them, the tokens written to
 * the cache (`cache_write_tokens`).
 */
export function fromOpenAiUsage(usage: OpenAiUsageFields | null | undefined): TokenUsage {
  const details = usage?.prompt_tokens_details;
  return withCache(
    { prompt_tokens: usage?.prompt_tokens ?? 0, completion_tokens: usage?.completion_tokens ?? 0 },
    details?.cached_tokens ?? 0,
    details?.cache_write_tokens ?? 0,
  );
}

interface AnthropicUsageFields {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * Messages' usage: `input_tokens` counts only the tokens after the last cache breakpoint; those
 * read from the cache and written to it come on top. The prompt is all three.
 */
export function fromAnthropicUsage(usage: AnthropicUsageFields): TokenUsage {
  const cached = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return withCache(
    { prompt_tokens: usage.input_tokens + cached + written, completion_tokens: usage.output_tokens },
    cached,
    written,
  );
}
