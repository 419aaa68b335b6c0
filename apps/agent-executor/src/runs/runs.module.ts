import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ToolApprovalService } from '../approvals/tool-approval.service';
import { MessageRoutingService } from '../routing/message-routing.service';
import { RoutingHandler } from '../routing/routing.handler';
import { SessionsModule } from '../sessions/sessions.module';
import { StoreModule } from '../store/store.module';
import { ToolsModule } from '../tools/tools.module';
import { TurnsModule } from '../turns/turns.module';
import { LeaseSweeper } from './lease.sweeper';
import { RunControlService } from './run-control.service';
import { RunMailHandler } from './run-mail.handler';
import { RunTakeoverService } from './run-takeover.service';
import { RunsHandler } from './runs.handler';
import { StaleRunSweeper } from './stale-run.sweeper';

/**
 * Runs under control: `agent.run` and the runs' API in (list, view, cancel, approve, reject),
 * interrupts and messages for the runs held here, the takeover of runs whose executor stopped
 * and the sweeps that keep leases, stale runs and approval timeouts in order. The turns themselves
 * run in the run host (`TurnsModule`).
 */
@Module({
  imports: [AgentsModule, SessionsModule, StoreModule, ToolsModule, TurnsModule],
  providers: [
    LeaseSweeper,
    MessageRoutingService,
    RoutingHandler,
    RunControlService,
    RunMailHandler,
    RunTakeoverService,
    RunsHandler,
    StaleRunSweeper,
    ToolApprovalService,
  ],
  exports: [RunControlService, TurnsModule],
})
export class RunsModule {}
