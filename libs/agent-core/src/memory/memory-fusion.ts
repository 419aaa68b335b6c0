/** The usual constant of reciprocal rank fusion: how much the first places outweigh the later ones. */
export const RRF_K = 60;

/**
 * Merges ranked lists (best first) by reciprocal rank fusion: an item scores the sum of
 * 1 / (k + rank) over the lists it appears in, so agreement between rankers counts more than one
 * ranker's confidence, and rankers whose scores are not comparable (BM25, vector distance) merge
 * without calibration. Items are told apart by `key`; the first occurrence is kept. Best first,
 * ties in the order the items were first seen.
 */
export function fuseByReciprocalRank<T>(
  lists: readonly (readonly T[])[],
  key: (item: T) => string,
  k = RRF_K,
): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, index) => {
      const id = key(item);
      const entry = fused.get(id) ?? { item, score: 0 };
      entry.score += 1 / (k + index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
