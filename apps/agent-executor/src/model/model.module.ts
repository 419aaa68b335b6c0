import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { LlmRegistry } from './llm-registry.service';
import { ModelCallerService } from './model-caller.service';

@Module({
  imports: [EventsModule],
  providers: [LlmRegistry, ModelCallerService],
  exports: [ModelCallerService],
})
export class ModelModule {}
