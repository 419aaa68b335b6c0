import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionClient } from '@app/functions';
import { BusFunctionCaller } from './bus-function.caller';
import { FunctionCatalogService } from './function-catalog.service';

@Module({
  providers: [
    FunctionCatalogService,
    BusFunctionCaller,
    { provide: FunctionClient, inject: [Bus], useFactory: (bus: Bus) => new FunctionClient(bus) },
  ],
  exports: [FunctionCatalogService, BusFunctionCaller, FunctionClient],
})
export class ToolsModule {}
