import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';
import { ConsoleFiles } from './console-files';

@Module({
  controllers: [ConsoleController],
  providers: [{ provide: ConsoleFiles, useValue: new ConsoleFiles() }],
})
export class ConsoleModule {}
