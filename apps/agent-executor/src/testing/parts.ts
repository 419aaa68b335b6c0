// The executor's parts that benchmarks measure below its API, named in one place: a benchmark
// reaches an app only through its testing kit (lint: bench/ imports no app's internals), so a part
// that moves inside the executor moves here, and no benchmark changes.
export { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
export { RunJournalStore } from '../journal/run-journal.store';
export { EmbeddingsClient } from '../memory/embeddings.client';
export { MemoryIndexService } from '../memory/memory-index.service';
export { MemorySegmentRepository } from '../store/memory-segment.repository';
export { MemoryVectorRepository } from '../store/memory-vector.repository';
export { RunJournalRepository } from '../store/run-journal.repository';
export { RunLeaseRepository } from '../store/run-lease.repository';
export { SessionRepository } from '../store/session.repository';
export { TurnWritesRepository } from '../store/turn-writes.repository';
export { BusFunctions } from '../tools/bus-functions';
export type { FunctionCatalogService } from '../tools/function-catalog.service';
