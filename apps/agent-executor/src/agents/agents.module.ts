import { Module } from '@nestjs/common';
import { AgentProfileRepository } from './agent-profile.repository';
import { AgentProfilesService } from './agent-profiles.service';
import { AgentsHandler } from './agents.handler';

@Module({
  providers: [AgentProfileRepository, AgentProfilesService, AgentsHandler],
  exports: [AgentProfilesService],
})
export class AgentsModule {}
