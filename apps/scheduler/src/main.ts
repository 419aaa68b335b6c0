import 'reflect-metadata';
import { bootService } from '@app/runtime';
import { SchedulerModule } from './scheduler.module';

void bootService({
  service: 'scheduler',
  module: (runtime, config) => SchedulerModule.register(runtime, config),
});
