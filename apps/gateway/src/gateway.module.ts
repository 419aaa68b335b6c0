import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { PlatformConfig } from '@app/config';
import { DatabaseHealth, PersistenceModule } from '@app/persistence';
import { healthCheckOf, RedisModule } from '@app/runtime';
import { AgentsModule } from './agents/agents.module';
import { AuthModule } from './auth/auth.module';
import { ChatModule } from './chat/chat.module';
import { ConsoleModule } from './console/console.module';
import { CommonModule } from './common/common.module';
import { HttpErrorFilter } from './common/http-error.filter';
import { DocsModule } from './common/openapi/docs.module';
import { FunctionsModule } from './functions/functions.module';
import { HealthModule } from './health/health.module';
import { A2aModule } from './doors/a2a/a2a.module';
import { AgUiModule } from './doors/ag-ui/ag-ui.module';
import { AnthropicModule } from './doors/anthropic/anthropic.module';
import { McpModule } from './doors/mcp/mcp.module';
import { OpenAiModule } from './doors/openai/openai.module';
import { RunsModule } from './runs/runs.module';
import { MemoryModule } from './memory/memory.module';
import { SessionsModule } from './sessions/sessions.module';
import { TasksModule } from './tasks/tasks.module';
import { UsageModule } from './usage/usage.module';

@Module({})
export class GatewayModule {
  static register(runtime: DynamicModule, config: PlatformConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        runtime,
        CommonModule,
        PersistenceModule.forRoot(config.database.url),
        RedisModule.forRoot(config.redis.url),
        AuthModule,
        HealthModule,
        FunctionsModule,
        ChatModule,
        RunsModule,
        SessionsModule,
        MemoryModule,
        AgentsModule,
        TasksModule,
        UsageModule,
        DocsModule,
        ...(config.mcp.serve ? [McpModule] : []),
        // before the OpenAI door, whose /v1 catch-all answers any path it does not serve
        AnthropicModule,
        OpenAiModule,
        AgUiModule,
        A2aModule,
        ConsoleModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        healthCheckOf('database', DatabaseHealth),
      ],
    };
  }
}
