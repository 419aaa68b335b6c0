import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { RunsModule } from '../runs/runs.module';
import { AgentCallsService } from './agent-calls.service';
import { AgentFunctionsHost } from './agent-functions.host';

/** Agents served as functions (`agent_<name>`): to other agents, scheduled tasks and API clients. */
@Module({
  imports: [AgentsModule, RunsModule],
  providers: [AgentCallsService, AgentFunctionsHost],
})
export class AgentFunctionsModule {}
