import { Inject, Module } from '@nestjs/common';
import { ChatModule } from '../../chat/chat.module';
import { ErrorShapes } from '../../common/error-shapes';
import { anthropicErrorShape } from './anthropic-error-shape';
import { AnthropicController } from './anthropic.controller';
import { AnthropicService } from './anthropic.service';

@Module({ imports: [ChatModule], controllers: [AnthropicController], providers: [AnthropicService] })
export class AnthropicModule {
  constructor(@Inject(ErrorShapes) shapes: ErrorShapes) {
    shapes.register('/v1/messages', anthropicErrorShape);
  }
}
