import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionClient } from '@app/functions';
import { BusFunctions } from './bus-functions';
import { FunctionCatalogService } from './function-catalog.service';

@Module({
  providers: [
    FunctionCatalogService,
    BusFunctions,
    { provide: FunctionClient, inject: [Bus], useFactory: (bus: Bus) => new FunctionClient(bus) },
  ],
  exports: [FunctionCatalogService, BusFunctions, FunctionClient],
})
export class ToolsModule {}
