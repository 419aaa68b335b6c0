import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { StoreModule } from '../store/store.module';
import { TurnsModule } from '../turns/turns.module';
import { RunForkService } from './run-fork.service';
import { StepMessagesService } from './step-messages.service';
import { StudioHandler } from './studio.handler';

/** Looking into runs and trying them again: a step's messages rebuilt from the journal; forks. */
@Module({
  imports: [AgentsModule, StoreModule, TurnsModule],
  providers: [RunForkService, StepMessagesService, StudioHandler],
})
export class StudioModule {}
