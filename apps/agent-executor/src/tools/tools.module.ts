import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { FunctionCatalogService } from './function-catalog.service';
import { ToolExecutorService } from './tool-executor.service';

@Module({
  imports: [EventsModule],
  providers: [FunctionCatalogService, ToolExecutorService],
  exports: [FunctionCatalogService, ToolExecutorService],
})
export class ToolsModule {}
