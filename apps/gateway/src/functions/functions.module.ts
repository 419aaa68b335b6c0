import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionCatalog } from '@app/functions';
import { FunctionsController } from './functions.controller';
import { FunctionsService } from './functions.service';
import { McpServerStatusService } from './mcp-server-status.service';
import { McpServersController } from './mcp-servers.controller';

@Module({
  controllers: [FunctionsController, McpServersController],
  providers: [
    FunctionsService,
    McpServerStatusService,
    {
      provide: FunctionCatalog,
      inject: [Bus],
      useFactory: (bus: Bus) => {
        const catalog = new FunctionCatalog(bus);
        catalog.start();
        return catalog;
      },
    },
  ],
  exports: [FunctionsService],
})
export class FunctionsModule {}
