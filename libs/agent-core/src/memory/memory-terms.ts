/** Words a search keeps: enough for a question, few enough to keep a match cheap. */
export const MAX_MEMORY_TERMS = 32;
const MAX_TERM_CHARS = 64;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A caller's query as plain search words: letters and digits only, lower-cased, each once, in
 * order. Quotes, `*`, `OR`-as-operator, column filters and other syntax of FTS5 or tsquery are
 * gone (an `OR` is just the word "or"), so any text is a safe query; none left means nothing to
 * search for, which the caller refuses.
 */
export function memoryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const [word] of query.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    terms.add(word.slice(0, MAX_TERM_CHARS));
    if (terms.size === MAX_MEMORY_TERMS) break;
  }
  return [...terms];
}
