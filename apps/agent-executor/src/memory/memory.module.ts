import { Module } from '@nestjs/common';
import { RunRepository } from '../runs/run.repository';
import { SessionsModule } from '../sessions/sessions.module';
import { EmbeddingsClient } from './embeddings.client';
import { MemoryArchiverService } from './memory-archiver.service';
import { MemoryIndexService } from './memory-index.service';
import { MemorySegmentRepository } from './memory-segment.repository';
import { MemoryVectorRepository } from './memory-vector.repository';
import { MemoryHandler } from './memory.handler';
import { MemoryService } from './memory.service';

/**
 * Long-term memory: finished runs archived as anchored segments, searched by full text (and by
 * meaning, with embeddings configured); the
 * memory functions of a run (wired by the run engine) and the caller's search and forget.
 */
@Module({
  imports: [SessionsModule],
  // RunRepository (stateless, over the one DB client) answers whose a run is, for forgetting one.
  providers: [
    MemorySegmentRepository,
    MemoryVectorRepository,
    EmbeddingsClient,
    MemoryIndexService,
    MemoryArchiverService,
    MemoryService,
    MemoryHandler,
    RunRepository,
  ],
  exports: [MemoryIndexService, MemoryArchiverService],
})
export class MemoryModule {}
