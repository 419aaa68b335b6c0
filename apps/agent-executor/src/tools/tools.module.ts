import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionClient } from '@app/functions';
import { EventsModule } from '../events/events.module';
import { FunctionCatalogService } from './function-catalog.service';
import { ToolExecutorService } from './tool-executor.service';

@Module({
  imports: [EventsModule],
  providers: [
    FunctionCatalogService,
    ToolExecutorService,
    { provide: FunctionClient, inject: [Bus], useFactory: (bus: Bus) => new FunctionClient(bus) },
  ],
  exports: [FunctionCatalogService, ToolExecutorService, FunctionClient],
})
export class ToolsModule {}
