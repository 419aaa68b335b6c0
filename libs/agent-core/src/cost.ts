import type { ModelPrice, Usage } from '@app/contracts';

const PER_MILLION = 1_000_000;

/** What `usage` costs in USD at `price` (USD per million tokens), rounded to a billionth of a dollar. */
export function costOf(usage: Usage, price: ModelPrice): number {
  return roundUsd(
    (usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) /
      PER_MILLION,
  );
}

/** An amount of USD to a billionth: sums of binary fractions drift (0.1 + 0.2), far below any price that matters. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** The usage with its cost, when the model has a price; without one the cost is absent, not 0. */
export function pricedUsage(usage: Usage, price: ModelPrice | undefined): Usage {
  const tokens = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
  return price ? { ...tokens, cost_usd: costOf(usage, price) } : tokens;
}
