import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module';
import { ToolsModule } from '../tools/tools.module';
import { AgentProfilesService } from './agent-profiles.service';
import { AgentsHandler } from './agents.handler';

@Module({
  imports: [StoreModule, ToolsModule],
  providers: [AgentProfilesService, AgentsHandler],
  exports: [AgentProfilesService],
})
export class AgentsModule {}
