import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { RunForkService } from './run-fork.service';
import { RunStudioController } from './run-studio.controller';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  imports: [ChatModule],
  controllers: [RunsController, RunStudioController],
  providers: [RunsService, RunForkService],
  exports: [RunsService],
})
export class RunsModule {}
