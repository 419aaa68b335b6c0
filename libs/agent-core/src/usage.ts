import type { Usage } from '@app/contracts';

/** The fields of a usage that count tokens (everything but its cost). */
const TOKEN_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'cached_prompt_tokens',
  'cache_write_tokens',
] as const;

/**
 * Adds `more`'s tokens to `into`, in place. The prompt cache's counts are kept only once some
 * call reported them, so a usage without caching looks as it always did.
 */
export function addTokens(into: Usage, more: Usage): Usage {
  into.prompt_tokens += more.prompt_tokens;
  into.completion_tokens += more.completion_tokens;
  if (more.cached_prompt_tokens)
    into.cached_prompt_tokens = (into.cached_prompt_tokens ?? 0) + more.cached_prompt_tokens;
  if (more.cache_write_tokens)
    into.cache_write_tokens = (into.cache_write_tokens ?? 0) + more.cache_write_tokens;
  return into;
}

/** A usage's token counts alone (its cost left out), zero cache counts dropped. */
export function tokensOf(usage: Usage): Usage {
  return addTokens({ prompt_tokens: 0, completion_tokens: 0 }, usage);
}

/** `after` less `before`, field by field, never below 0: what was spent in between. */
export function tokensBetween(before: Usage, after: Usage): Usage {
  const spent: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (const field of TOKEN_FIELDS) {
    const difference = Math.max(0, (after[field] ?? 0) - (before[field] ?? 0));
    if (difference > 0 || field === 'prompt_tokens' || field === 'completion_tokens')
      spent[field] = difference;
  }
  return spent;
}

/** Prompt tokens billed at the full input price: neither read from the cache nor written to it. */
export function uncachedPromptTokens(usage: Usage): number {
  return Math.max(
    0,
    usage.prompt_tokens - (usage.cached_prompt_tokens ?? 0) - (usage.cache_write_tokens ?? 0),
  );
}
