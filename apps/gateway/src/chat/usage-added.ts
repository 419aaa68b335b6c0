import type { Usage } from '@app/contracts';

/**
 * What a run's later turn added to its usage: a run that goes on (after an approval, or with the
 * caller's tool results) answers with its whole usage, and what came before was charged already.
 */
export function usageAdded(after: Usage, before: Usage): Usage {
  return {
    prompt_tokens: Math.max(0, after.prompt_tokens - before.prompt_tokens),
    completion_tokens: Math.max(0, after.completion_tokens - before.completion_tokens),
    ...(after.cost_usd === undefined
      ? {}
      : { cost_usd: Math.max(0, after.cost_usd - (before.cost_usd ?? 0)) }),
  };
}
