import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { EventsModule } from '../events/events.module';
import { LlmRegistry } from '../engine/llm-registry.service';
import { RunEngineService } from '../engine/run-engine.service';
import { RunJournalStore } from '../engine/run-journal.store';
import { RunJournalRepository } from '../journal/run-journal.repository';
import { PlanApprovalService } from './plan-approval.service';
import { MemoryModule } from '../memory/memory.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ToolsModule } from '../tools/tools.module';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { AgentTurnService } from './agent-turn.service';
import { RunControlService } from './run-control.service';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunListRepository } from './run-list.repository';
import { RunMetrics } from '../engine/run-metrics';
import { RunRepository } from './run.repository';
import { RunsHandler } from './runs.handler';
import { StaleRunSweeper } from './stale-run.sweeper';

/** Runs on the run engine (libs/agent-core), ReAct and plan mode: everything between `agent.run` and its reply. */
@Module({
  imports: [AgentsModule, EventsModule, MemoryModule, SessionsModule, ToolsModule],
  providers: [
    AgentTurnService,
    LlmRegistry,
    RunEngineService,
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
    StaleRunSweeper,
    ClientToolsService,
    ClientToolResultsService,
  ],
})
export class RunsModule {}
