import { Inject, Injectable } from '@nestjs/common';
import {
  fuseByReciprocalRank,
  type MemoryExpansion,
  type MemoryRef,
  type MemoryScope,
  type MemorySegment,
  type MemoryStore,
} from '@app/agent-core';
import type { MemoryChunk } from '@app/contracts';
import { Logger, Metrics } from '@app/observability';
import { EmbeddingsClient } from './embeddings.client';
import { MemorySegmentRepository } from '../store/memory-segment.repository';
import { MemoryVectorRepository } from '../store/memory-vector.repository';

/** Candidates each ranker gives the fusion: enough for a later page of results to still agree. */
const FUSION_DEPTH = 50;

/**
 * Long-term memory as a run and the API see it. With embeddings configured (and a database that
 * holds vectors), a search merges the full-text ranking with the nearest vectors in the same scope
 * by reciprocal rank fusion, and a chunk's `relevance` is its fused score; without them, or when
 * the embeddings endpoint fails, it is the full-text search alone, BM25-ranked.
 */
@Injectable()
export class MemoryIndexService implements MemoryStore {
  constructor(
    @Inject(MemorySegmentRepository) private readonly segments: MemorySegmentRepository,
    @Inject(MemoryVectorRepository) private readonly vectors: MemoryVectorRepository,
    @Inject(EmbeddingsClient) private readonly embeddings: EmbeddingsClient,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  append(segments: readonly MemorySegment[]): Promise<void> {
    return this.segments.append(segments);
  }

  async search(scope: MemoryScope, terms: readonly string[], limit: number): Promise<MemoryChunk[]> {
    if (!(await this.vectors.available())) return this.segments.search(scope, terms, limit);
    const depth = Math.max(limit, FUSION_DEPTH);
    const [byText, byMeaning] = await Promise.all([
      this.segments.search(scope, terms, depth),
      this.nearest(scope, terms, depth),
    ]);
    if (byMeaning === undefined) return byText.slice(0, limit);
    return fuseByReciprocalRank([byText, byMeaning], anchorKey)
      .slice(0, limit)
      .map(({ item, score }) => ({ ...item, relevance: Math.round(score * 10_000) / 10_000 }));
  }

  expand(scope: MemoryScope, ref: MemoryRef, window: number): Promise<MemoryExpansion | undefined> {
    return this.segments.expand(scope, ref, window);
  }

  async forget(principal: string, only: { sessionId?: string; runId?: string } = {}): Promise<number> {
    await this.vectors.forget(principal, only);
    return this.segments.forget(principal, only);
  }

  /**
   * Gives the run's stored segments that have none their vectors, in one batch. A failure leaves
   * them searchable by full text and is counted; it never reaches the run.
   */
  async embedRun(runId: string): Promise<void> {
    if (!(await this.vectors.available())) return;
    let missing: Awaited<ReturnType<MemoryVectorRepository['missing']>> = [];
    try {
      missing = await this.vectors.missing(runId);
      if (missing.length === 0) return;
      const vectors = await this.embeddings.embed(missing.map((s) => s.content));
      await this.vectors.store(missing, vectors);
      Metrics.memoryEmbeddings().inc({ status: 'embedded' }, missing.length);
    } catch (err) {
      Metrics.memoryEmbeddings().inc({ status: 'failed' }, missing.length);
      this.logger.warn('could not embed the run’s memory; it stays searchable by full text', {
        run_id: runId,
        err,
      });
    }
  }

  /** The nearest segments in scope; `undefined` when the query could not be embedded or searched. */
  private async nearest(
    scope: MemoryScope,
    terms: readonly string[],
    k: number,
  ): Promise<MemoryChunk[] | undefined> {
    try {
      const vector = await this.embeddings.embedQuery(terms.join(' '));
      return await this.segments.inScopeByIds(scope, await this.vectors.nearest(scope, vector, k));
    } catch (err) {
      Metrics.memoryEmbeddings().inc({ status: 'query_failed' });
      this.logger.warn('memory search by meaning failed; answering by full text only', { err });
      return undefined;
    }
  }
}

function anchorKey(chunk: MemoryChunk): string {
  const { run_id, iteration_index, segment_index } = chunk.anchor;
  return `${run_id}/${iteration_index}/${segment_index}`;
}
