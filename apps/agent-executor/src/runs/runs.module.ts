import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { EventsModule } from '../events/events.module';
import { ModelModule } from '../model/model.module';
import { PlanApprovalService } from '../plans/plan-approval.service';
import { PlanRunnerService } from '../plans/plan-runner.service';
import { PlanStepsService } from '../plans/plan-steps.service';
import { PlannerService } from '../plans/planner.service';
import { PlanSummaryService } from '../plans/plan-summary.service';
import { SessionsModule } from '../sessions/sessions.module';
import { ToolsModule } from '../tools/tools.module';
import { ClientToolPauseService } from '../client-tools/client-tool-pause.service';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { AgentTurnService } from './agent-turn.service';
import { RunControlService } from './run-control.service';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunListRepository } from './run-list.repository';
import { RunLoopService } from './run-loop.service';
import { RunMetrics } from './run-metrics';
import { RunRepository } from './run.repository';
import { RunsHandler } from './runs.handler';
import { StaleRunSweeper } from './stale-run.sweeper';

/** Runs, ReAct and plan mode: everything between `agent.run` and its reply. */
@Module({
  imports: [AgentsModule, EventsModule, ModelModule, SessionsModule, ToolsModule],
  providers: [
    AgentTurnService,
    RunLoopService,
    RunExecutionService,
    RunFinisherService,
    RunMetrics,
    RunControlService,
    RunRepository,
    RunListRepository,
    PlannerService,
    PlanStepsService,
    PlanSummaryService,
    PlanRunnerService,
    PlanApprovalService,
    RunsHandler,
    StaleRunSweeper,
    ClientToolsService,
    ClientToolPauseService,
    ClientToolResultsService,
  ],
})
export class RunsModule {}
