import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { EventsModule } from '../events/events.module';
import { LlmRegistry } from '../engine/llm-registry.service';
import { RunEngineService } from '../engine/run-engine.service';
import { KeySpendLedger } from '../engine/key-spend.ledger';
import { KeyBudgetRepository } from '@app/limits';
import { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
import { RunJournalStore } from '../engine/run-journal.store';
import { RunJournalRepository } from '../journal/run-journal.repository';
import { PlanApprovalService } from './plan-approval.service';
import { MemoryModule } from '../memory/memory.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ToolsModule } from '../tools/tools.module';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { AgentTurnService } from './agent-turn.service';
import { ClientPlansService } from './client-plans.service';
import { RunControlService } from './run-control.service';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunListRepository } from './run-list.repository';
import { RunMetrics } from '../engine/run-metrics';
import { RunRepository } from './run.repository';
import { RunsHandler } from './runs.handler';
import { RunMailHandler } from './run-mail.handler';
import { RunsInFlight } from './runs-in-flight';
import { StaleRunSweeper } from './stale-run.sweeper';
import { LeaseSweeper } from './lease.sweeper';
import { RunLeaseRepository } from './run-lease.repository';
import { RunLeases } from './run-leases.service';
import { RunTakeoverService } from './run-takeover.service';
import { MessageRoutingService } from '../routing/message-routing.service';
import { RoutingHandler } from '../routing/routing.handler';
import { RunResumeService } from './run-resume.service';
import { RunApprovalRepository } from '../approvals/run-approval.repository';
import { ToolApprovalService } from '../approvals/tool-approval.service';

/** Runs on the run engine (libs/agent-core), ReAct and plan mode: everything between `agent.run` and its reply. */
@Module({
  imports: [AgentsModule, EventsModule, MemoryModule, SessionsModule, ToolsModule],
  providers: [
    AgentTurnService,
    LlmRegistry,
    RunEngineService,
    KeySpendLedger,
    KeyBudgetRepository,
    ProfileHooksFactory,
    RunJournalStore,
    RunJournalRepository,
    RunExecutionService,
    RunFinisherService,
    RunMetrics,
    RunControlService,
    RunRepository,
    RunListRepository,
    PlanApprovalService,
    RunsHandler,
    RunsInFlight,
    RunMailHandler,
    StaleRunSweeper,
    LeaseSweeper,
    RunLeaseRepository,
    RunLeases,
    RunTakeoverService,
    RunResumeService,
    RunApprovalRepository,
    ToolApprovalService,
    ClientToolsService,
    ClientToolResultsService,
    ClientPlansService,
    MessageRoutingService,
    RoutingHandler,
  ],
  exports: [AgentTurnService, RunControlService],
})
export class RunsModule {}
