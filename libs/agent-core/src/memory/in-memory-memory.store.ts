import type { MemoryChunk } from '@app/contracts';
import { chunkOf, expansionOf, withinScope } from './memory-chunks';
import { rankByBm25, searchWords } from './memory-ranking';
import type { MemoryExpansion, MemoryRef, MemoryScope, MemorySegment, MemoryStore } from './memory-store';

/**
 * Long-term memory in this process, for tests and short-lived hosts: every segment kept in a list,
 * a search ranking the scope's segments that share a word with it (`rankByBm25`).
 */
export class InMemoryMemoryStore implements MemoryStore {
  private readonly segments = new Map<string, MemorySegment>();

  async append(segments: readonly MemorySegment[]): Promise<void> {
    for (const segment of segments) {
      const key = anchorKey(segment);
      if (!this.segments.has(key)) this.segments.set(key, { ...segment });
    }
  }

  async search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]> {
    const wanted = new Set(terms.flatMap(searchWords));
    const candidates = [...this.segments.values()].filter(
      (s) => withinScope(scope, s) && searchWords(s.content).some((word) => wanted.has(word)),
    );
    return rankByBm25(terms, candidates)
      .slice(0, limit)
      .map(({ item, relevance }) => chunkOf(item, relevance));
  }

  async expand(scope: MemoryScope, ref: MemoryRef, window: number): Promise<MemoryExpansion | undefined> {
    const anchor = this.segments.get(anchorKey(ref));
    if (!anchor || !withinScope(scope, anchor)) return undefined;
    const run = [...this.segments.values()].filter((s) => s.runId === ref.runId);
    return expansionOf(anchor, run, window);
  }
}

function anchorKey(ref: MemoryRef): string {
  return `${ref.runId}\u0000${ref.iterationIndex}\u0000${ref.segmentIndex}`;
}
