import type { ModelPrice, Usage } from '@app/contracts';
import { tokensOf, uncachedPromptTokens } from './usage';

const PER_MILLION = 1_000_000;

/**
 * What `usage` costs in USD at `price` (USD per million tokens), as the provider bills it: prompt
 * tokens read from its cache at the cached-input price, those written to it at the cache-write
 * price, the rest at the input price; rounded to a billionth of a dollar.
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cached = usage.cached_prompt_tokens ?? 0;
  const written = usage.cache_write_tokens ?? 0;
  return roundUsd(
    (uncachedPromptTokens(usage) * price.input_per_mtok +
      cached * (price.cached_input_per_mtok ?? price.input_per_mtok) +
      written * (price.cache_write_per_mtok ?? price.input_per_mtok) +
      usage.completion_tokens * price.output_per_mtok) /
      PER_MILLION,
  );
}

/**
 * The most a model call can cost: its whole prompt at the higher of the input and cache-write
 * prices (whatever the cache does), and `maxTokens` of completion.
 */
export function worstCaseCost(promptTokens: number, maxTokens: number, price: ModelPrice): number {
  const input = Math.max(price.input_per_mtok, price.cache_write_per_mtok ?? 0);
  return roundUsd((promptTokens * input + maxTokens * price.output_per_mtok) / PER_MILLION);
}

/** An amount of USD to a billionth: sums of binary fractions drift (0.1 + 0.2), far below any price that matters. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** The usage with its cost, when the model has a price; without one the cost is absent, not 0. */
export function pricedUsage(usage: Usage, price: ModelPrice | undefined): Usage {
  const tokens = tokensOf(usage);
  return price ? { ...tokens, cost_usd: costOf(usage, price) } : tokens;
}
