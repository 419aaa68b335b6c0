import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { ChatModule } from '../../chat/chat.module';
import { FunctionsModule } from '../../functions/functions.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';
import { McpToolsService } from './mcp-tools.service';

@Module({
  imports: [FunctionsModule, ChatModule, AgentsModule],
  controllers: [McpController],
  providers: [McpService, McpToolsService],
})
export class McpModule {}
