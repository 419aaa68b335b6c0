import { Inject, Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { ChatModule } from '../../chat/chat.module';
import { RunsModule } from '../../runs/runs.module';
import { ErrorShapes } from '../../common/error-shapes';
import { openAiErrorShape } from './openai-error-shape';
import { OpenAiController } from './openai.controller';
import { OpenAiService } from './openai.service';
import { ResponsesController } from './responses.controller';
import { ResponsesService } from './responses.service';

@Module({
  imports: [ChatModule, RunsModule, AgentsModule],
  // the Responses routes before the catch-all 404 of any other /v1 path
  controllers: [ResponsesController, OpenAiController],
  providers: [OpenAiService, ResponsesService],
})
export class OpenAiModule {
  constructor(@Inject(ErrorShapes) shapes: ErrorShapes) {
    shapes.register('/v1/', openAiErrorShape);
  }
}
