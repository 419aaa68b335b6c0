import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { DatabaseHealth, PersistenceModule } from '@app/persistence';
import { healthCheckOf } from '@app/runtime';
import { AgentFunctionsModule } from './agent-functions/agent-functions.module';
import { FunctionCallsModule } from './function-calls/function-calls.module';
import { RunsModule } from './runs/runs.module';
import { StudioModule } from './studio/studio.module';
import { UsageModule } from './usage/usage.module';

@Module({})
export class AgentExecutorModule {
  static register(runtime: DynamicModule, config: PlatformConfig): DynamicModule {
    return {
      module: AgentExecutorModule,
      imports: [
        runtime,
        PersistenceModule.forRoot(config.database.url),
        RunsModule,
        FunctionCallsModule,
        AgentFunctionsModule,
        UsageModule,
        StudioModule,
      ],
      providers: [healthCheckOf('database', DatabaseHealth)],
    };
  }
}
