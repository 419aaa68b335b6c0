import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type FinishedRun, segmentRun } from '@app/agent-core';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import { MemoryIndexService } from './memory-index.service';

/**
 * Archives finished runs into long-term memory, behind the reply: `archive` returns at once and the
 * write happens after. A failed write is logged and counted (`ac_memory_segments_total{status=
 * "failed"}`) and never reaches the run: its caller has its answer already, and memory is a help,
 * not the record (the run's trace is). With embeddings configured, the stored segments then get
 * their vectors, in one batch per run (`MemoryIndexService.embedRun`).
 */
@Injectable()
export class MemoryArchiverService implements OnModuleInit {
  /** Writes in flight, so a shutdown or a test can wait for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @Inject(MemoryIndexService) private readonly segments: MemoryIndexService,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    initialiseCounter(Metrics.memorySegments(), [{ status: 'archived' }, { status: 'failed' }]);
    initialiseCounter(Metrics.memoryEmbeddings(), [
      { status: 'embedded' },
      { status: 'failed' },
      { status: 'query_failed' },
    ]);
  }

  archive(run: FinishedRun): void {
    // Even the segmenting waits until the reply has gone out.
    const write = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.write(run))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves when every archive started so far is written (or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async write(run: FinishedRun): Promise<void> {
    let count = 0;
    try {
      const segments = segmentRun(run);
      count = segments.length;
      await this.segments.append(segments);
      Metrics.memorySegments().inc({ status: 'archived' }, count);
    } catch (err) {
      Metrics.memorySegments().inc({ status: 'failed' }, count);
      this.logger.error('could not archive the run to memory; the run is not affected', {
        run_id: run.runId,
        err,
      });
      return;
    }
    await this.segments.embedRun(run.runId);
  }
}
