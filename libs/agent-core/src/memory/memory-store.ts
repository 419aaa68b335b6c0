import type { MemoryChunk, MemorySegmentType } from '@app/contracts';

/**
 * Whose memories a lookup may see: always one principal's, narrowed to one session or one agent.
 * Every query of a `MemoryStore` is bounded by it, so no chunk crosses principals.
 */
export interface MemoryScope {
  principal: string;
  sessionId?: string;
  agent?: string;
}

/** A segment to remember: a piece of a finished run, with its anchor and its owners. */
export interface MemorySegment {
  principal: string;
  sessionId: string;
  agent: string;
  runId: string;
  iterationIndex: number;
  segmentIndex: number;
  type: MemorySegmentType;
  content: string;
  at: Date;
}

/** A segment's place: its run, the run's step, its place among the step's segments. */
export interface MemoryRef {
  runId: string;
  iterationIndex: number;
  segmentIndex: number;
}

/** An anchored chunk with its neighbours in the same run, and the run's goal (its user message). */
export interface MemoryExpansion {
  goal: string | null;
  before: MemoryChunk[];
  chunk: MemoryChunk;
  after: MemoryChunk[];
}

/**
 * Long-term memory: finished runs' segments, searched by full text. `terms` are plain words
 * (`memoryTerms`): the store builds its own match expression from them, so no operator of the
 * query language ever comes from a caller.
 */
export interface MemoryStore {
  /** Stores a finished run's segments (`segmentRun`); a segment already stored at its anchor is kept. */
  append(segments: readonly MemorySegment[]): Promise<void>;
  search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]>;
  /** `undefined` when the segment does not exist within the scope. */
  expand(scope: MemoryScope, ref: MemoryRef, window: number): Promise<MemoryExpansion | undefined>;
}
