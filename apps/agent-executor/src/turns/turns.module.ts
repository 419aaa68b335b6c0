import { Module } from '@nestjs/common';
import { KeyBudgetRepository } from '@app/limits';
import { AgentsModule } from '../agents/agents.module';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { EventsModule } from '../events/events.module';
import { RunMetrics } from '../events/run-metrics';
import { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
import { RunJournalStore } from '../journal/run-journal.store';
import { KeySpendLedger } from '../llm/key-spend.ledger';
import { LlmRegistry } from '../llm/llm-registry.service';
import { MemoryModule } from '../memory/memory.module';
import { StoreModule } from '../store/store.module';
import { ToolsModule } from '../tools/tools.module';
import { AgentTurnService } from './agent-turn.service';
import { ClientPlansService } from './client-plans.service';
import { PlanApprovalService } from './plan-approval.service';
import { ExecutorRuntimeService } from './executor-runtime.service';
import { RunFinisherService } from './run-finisher.service';
import { RunLeases } from './run-leases.service';
import { RunHostService } from './run-host.service';
import { RunResumeService } from './run-resume.service';
import { RunsInFlight } from './runs-in-flight';
import { SessionHistoryService } from './session-history.service';

/**
 * The run host: a turn started, resumed from its journal, or carried on after an approval or a
 * client tool result, on the run engine (libs/agent-core) with the executor's ports, leased and
 * held in flight here until it is answered.
 */
@Module({
  imports: [AgentsModule, EventsModule, MemoryModule, StoreModule, ToolsModule],
  providers: [
    AgentTurnService,
    ClientPlansService,
    ClientToolResultsService,
    ClientToolsService,
    KeyBudgetRepository,
    KeySpendLedger,
    LlmRegistry,
    PlanApprovalService,
    ProfileHooksFactory,
    ExecutorRuntimeService,
    RunFinisherService,
    RunHostService,
    RunJournalStore,
    RunLeases,
    RunMetrics,
    RunResumeService,
    RunsInFlight,
    SessionHistoryService,
  ],
  exports: [
    AgentTurnService,
    PlanApprovalService,
    ExecutorRuntimeService,
    RunFinisherService,
    RunHostService,
    RunJournalStore,
    RunLeases,
    RunResumeService,
    RunsInFlight,
  ],
})
export class TurnsModule {}
