import 'reflect-metadata';
import { bootService } from '@app/runtime';
import { AgentExecutorModule } from './agent-executor.module';

void bootService({
  service: 'agent-executor',
  module: (runtime, config) => AgentExecutorModule.register(runtime, config),
});
