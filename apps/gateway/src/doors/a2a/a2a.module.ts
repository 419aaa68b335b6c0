import { Inject, Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { ChatModule } from '../../chat/chat.module';
import { ErrorShapes } from '../../common/error-shapes';
import { FunctionsModule } from '../../functions/functions.module';
import { RunsModule } from '../../runs/runs.module';
import { jsonRpcErrorShape } from '../json-rpc-error';
import { A2aCardService } from './a2a-card.service';
import { A2aController } from './a2a.controller';
import { A2aService } from './a2a.service';

@Module({
  imports: [ChatModule, RunsModule, AgentsModule, FunctionsModule],
  controllers: [A2aController],
  providers: [A2aService, A2aCardService],
})
export class A2aModule {
  constructor(@Inject(ErrorShapes) shapes: ErrorShapes) {
    shapes.register('/a2a/', jsonRpcErrorShape);
  }
}
