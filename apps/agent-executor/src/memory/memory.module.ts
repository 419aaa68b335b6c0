import { Module } from '@nestjs/common';
import { EmbeddingsClient } from './embeddings.client';
import { MemoryArchiverService } from './memory-archiver.service';
import { MemoryIndexService } from './memory-index.service';
import { MemoryHandler } from './memory.handler';
import { MemoryService } from './memory.service';
import { StoreModule } from '../store/store.module';

/**
 * Long-term memory: finished runs archived as anchored segments, searched by full text (and by
 * meaning, with embeddings configured); the
 * memory functions of a run (wired by the run engine) and the caller's search and forget.
 */
@Module({
  imports: [StoreModule],
  providers: [EmbeddingsClient, MemoryIndexService, MemoryArchiverService, MemoryService, MemoryHandler],
  exports: [MemoryIndexService, MemoryArchiverService],
})
export class MemoryModule {}
