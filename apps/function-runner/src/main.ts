import 'reflect-metadata';
import { bootService } from '@app/runtime';
import { FunctionRunnerModule } from './function-runner.module';

void bootService({
  service: 'function-runner',
  module: (runtime, config) => FunctionRunnerModule.register(runtime, config),
});
