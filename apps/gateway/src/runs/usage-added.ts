import type { Usage } from '@app/contracts';

/**
 * What a run's usage grew by since `before`: a run carried on (after an approval) or forked
 * reports its whole usage, and only the growth is charged to the key that asked.
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
