import { Inject, Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { ChatModule } from '../../chat/chat.module';
import { FunctionsModule } from '../../functions/functions.module';
import { RunsModule } from '../../runs/runs.module';
import { ErrorShapes } from '../../common/error-shapes';
import { mcpErrorShape } from './mcp-error-shape';
import { McpController } from './mcp.controller';
import { ProtectedResourceController } from './protected-resource.controller';
import { McpService } from './mcp.service';
import { McpToolsService } from './mcp-tools.service';

@Module({
  imports: [FunctionsModule, ChatModule, RunsModule, AgentsModule],
  controllers: [McpController, ProtectedResourceController],
  providers: [McpService, McpToolsService],
})
export class McpModule {
  constructor(@Inject(ErrorShapes) shapes: ErrorShapes) {
    shapes.register('/mcp', mcpErrorShape);
  }
}
