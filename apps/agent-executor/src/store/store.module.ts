import { Module } from '@nestjs/common';
import { AgentProfileRepository } from './agent-profile.repository';
import { FunctionCallRepository } from './function-call.repository';
import { MemorySegmentRepository } from './memory-segment.repository';
import { MemoryVectorRepository } from './memory-vector.repository';
import { RunApprovalRepository } from './run-approval.repository';
import { RunJournalRepository } from './run-journal.repository';
import { RunLeaseRepository } from './run-lease.repository';
import { RunListRepository } from './run-list.repository';
import { RunRepository } from './run.repository';
import { RunUsageRepository } from './run-usage.repository';
import { SessionListRepository } from './session-list.repository';
import { SessionRepository } from './session.repository';
import { TurnWritesRepository } from './turn-writes.repository';

const REPOSITORIES = [
  AgentProfileRepository,
  FunctionCallRepository,
  MemorySegmentRepository,
  MemoryVectorRepository,
  RunApprovalRepository,
  RunJournalRepository,
  RunLeaseRepository,
  RunListRepository,
  RunRepository,
  RunUsageRepository,
  SessionListRepository,
  SessionRepository,
  TurnWritesRepository,
];

/**
 * Every repository of the executor, over the one database client: the only place Prisma and raw
 * SQL are spoken. It imports nothing of the executor above it; each feature imports it.
 */
@Module({ providers: REPOSITORIES, exports: REPOSITORIES })
export class StoreModule {}
