import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionCatalog } from '@app/functions';
import { FunctionsController } from './functions.controller';
import { FunctionsService } from './functions.service';

@Module({
  controllers: [FunctionsController],
  providers: [
    FunctionsService,
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
