import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { EventsModule } from '../events/events.module';
import { LlmRegistry } from '../engine/llm-registry.service';
import { RunEngineService } from '../engine/run-engine.service';
import { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
import { RunJournalStore } from '../engine/run-journal.store';
import { PlanApprovalService } from './plan-approval.service';
import { MemoryModule } from '../memory/memory.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ToolsModule } from '../tools/tools.module';
import { StoreModule } from '../store/store.module';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { AgentTurnService } from './agent-turn.service';
import { ClientPlansService } from './client-plans.service';
import { RunControlService } from './run-control.service';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunMetrics } from '../engine/run-metrics';
import { RunsHandler } from './runs.handler';
import { RunMailHandler } from './run-mail.handler';
import { RunsInFlight } from './runs-in-flight';
import { StaleRunSweeper } from './stale-run.sweeper';
import { LeaseSweeper } from './lease.sweeper';
import { RunLeases } from './run-leases.service';
import { RunTakeoverService } from './run-takeover.service';
import { MessageRoutingService } from '../routing/message-routing.service';
import { RoutingHandler } from '../routing/routing.handler';
import { RunResumeService } from './run-resume.service';
import { ToolApprovalService } from '../approvals/tool-approval.service';

/** Runs on the run engine (libs/agent-core), ReAct and plan mode: everything between `agent.run` and its reply. */
@Module({
  imports: [AgentsModule, EventsModule, MemoryModule, SessionsModule, StoreModule, ToolsModule],
  providers: [
    AgentTurnService,
    LlmRegistry,
    RunEngineService,
    ProfileHooksFactory,
    RunJournalStore,
    RunExecutionService,
    RunFinisherService,
    RunMetrics,
    RunControlService,
    PlanApprovalService,
    RunsHandler,
    RunsInFlight,
    RunMailHandler,
    StaleRunSweeper,
    LeaseSweeper,
    RunLeases,
    RunTakeoverService,
    RunResumeService,
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
