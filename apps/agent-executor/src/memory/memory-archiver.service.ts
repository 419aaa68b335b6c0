import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type FinishedRun, RunArchiver } from '@app/agent-core';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import { MemoryIndexService } from './memory-index.service';

/**
 * Archives finished runs into long-term memory, behind the reply (the engine's `RunArchiver`, as
 * the embedded SDK does). A failed write is logged and counted (`ac_memory_segments_total{status=
 * "failed"}`) and never reaches the run. With embeddings configured, the stored segments then get
 * their vectors, in one batch per run (`MemoryIndexService.embedRun`).
 */
@Injectable()
export class MemoryArchiverService implements OnModuleInit {
  private readonly archiver: RunArchiver;

  constructor(@Inject(MemoryIndexService) segments: MemoryIndexService, @Inject(Logger) logger: Logger) {
    this.archiver = new RunArchiver(segments, {
      archived: async (run, count) => {
        Metrics.memorySegments().inc({ status: 'archived' }, count);
        await segments.embedRun(run.runId);
      },
      failed: (run, count, err) => {
        Metrics.memorySegments().inc({ status: 'failed' }, count);
        logger.error('could not archive the run to memory; the run is not affected', {
          run_id: run.runId,
          err,
        });
      },
    });
  }

  onModuleInit(): void {
    initialiseCounter(Metrics.memorySegments(), [{ status: 'archived' }, { status: 'failed' }]);
    initialiseCounter(Metrics.memoryEmbeddings(), [
      { status: 'embedded' },
      { status: 'failed' },
      { status: 'query_failed' },
    ]);
  }

  archive(run: FinishedRun): void {
    this.archiver.archive(run);
  }

  /** Resolves when every archive started so far is written (or given up). */
  settled(): Promise<void> {
    return this.archiver.settled();
  }
}
