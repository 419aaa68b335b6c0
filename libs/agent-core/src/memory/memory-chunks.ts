import type { MemoryChunk } from '@app/contracts';
import type { MemoryExpansion, MemorySegment } from './memory-store';

/** A stored segment as a search or an expansion shows it. */
export function chunkOf(segment: MemorySegment, relevance = 0): MemoryChunk {
  return {
    content: segment.content,
    relevance: Math.round(relevance * 10_000) / 10_000,
    anchor: {
      run_id: segment.runId,
      iteration_index: segment.iterationIndex,
      segment_index: segment.segmentIndex,
      segment_type: segment.type,
      timestamp: segment.at.toISOString(),
    },
    session_id: segment.sessionId,
    agent: segment.agent,
  };
}

/**
 * The expansion of `anchor` within its run's segments (any order): `window` segments on each side,
 * and the run's first user message as its goal.
 */
export function expansionOf(
  anchor: MemorySegment,
  runSegments: readonly MemorySegment[],
  window: number,
): MemoryExpansion {
  const ordered = [...runSegments].sort(
    (a, b) => a.iterationIndex - b.iterationIndex || a.segmentIndex - b.segmentIndex,
  );
  const at = ordered.findIndex(
    (s) => s.iterationIndex === anchor.iterationIndex && s.segmentIndex === anchor.segmentIndex,
  );
  return {
    goal: ordered.find((s) => s.type === 'user_message')?.content ?? null,
    before: ordered.slice(Math.max(0, at - window), at).map((s) => chunkOf(s)),
    chunk: chunkOf(anchor),
    after: ordered.slice(at + 1, at + 1 + window).map((s) => chunkOf(s)),
  };
}

export function withinScope(
  scope: { principal: string; sessionId?: string; agent?: string },
  segment: MemorySegment,
): boolean {
  return (
    segment.principal === scope.principal &&
    (!scope.sessionId || segment.sessionId === scope.sessionId) &&
    (!scope.agent || segment.agent === scope.agent)
  );
}
