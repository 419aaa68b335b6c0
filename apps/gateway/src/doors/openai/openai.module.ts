import { Inject, Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { ChatModule } from '../../chat/chat.module';
import { ErrorShapes } from '../../common/error-shapes';
import { openAiErrorShape } from './openai-error-shape';
import { OpenAiController } from './openai.controller';
import { OpenAiService } from './openai.service';

@Module({
  imports: [ChatModule, AgentsModule],
  controllers: [OpenAiController],
  providers: [OpenAiService],
})
export class OpenAiModule {
  constructor(@Inject(ErrorShapes) shapes: ErrorShapes) {
    shapes.register('/v1/', openAiErrorShape);
  }
}
