/** BM25's usual constants: how fast repeated words stop counting, how much length counts. */
const K1 = 1.2;
const B = 0.75;
const WORD = /[\p{L}\p{N}]+/gu;

const NON_ASCII = /[^\x00-\x7f]/;

/** Words as both databases' indexes see them: NFKC, lower case, accents off (SQLite's unicode61 does that). */
export function searchWords(text: string): string[] {
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(WORD) ?? [];
  const words = text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
  return words.map((word) => (NON_ASCII.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word));
}

/**
 * Orders a search's candidates by BM25 over the candidates themselves: a word found in few of them
 * counts more than one found in most, a word repeated counts with diminishing returns, a long text
 * counts less per match. The databases only find candidates (their own rankers read every match
 * of a common word, which grows with what is stored); this keeps the cost to the candidates.
 * Returns each candidate's relevance (0 when no word matches), best first, stable on ties.
 */
export function rankByBm25<T extends { content: string }>(
  terms: readonly string[],
  candidates: readonly T[],
): { item: T; relevance: number }[] {
  const wanted = new Set(terms.flatMap(searchWords));
  const counted = candidates.map((item) => {
    const words = searchWords(item.content);
    const tf = new Map<string, number>();
    for (const word of words) if (wanted.has(word)) tf.set(word, (tf.get(word) ?? 0) + 1);
    return { item, length: words.length, tf };
  });
  const n = counted.length;
  const averageLength = counted.reduce((sum, c) => sum + c.length, 0) / Math.max(1, n) || 1;
  const idf = new Map(
    [...wanted].map((word) => {
      const df = counted.filter((c) => c.tf.has(word)).length;
      return [word, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return counted
    .map(({ item, length, tf }) => {
      let relevance = 0;
      for (const [word, count] of tf) {
        const norm = K1 * (1 - B + (B * length) / averageLength);
        relevance += (idf.get(word) ?? 0) * ((count * (K1 + 1)) / (count + norm));
      }
      return { item, relevance };
    })
    .sort((a, b) => b.relevance - a.relevance);
}
