import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ChatModule } from '../chat/chat.module';
import { OpenAiErrorFilter } from './openai-error.filter';
import { OpenAiController } from './openai.controller';
import { OpenAiService } from './openai.service';

@Module({
  imports: [ChatModule, AgentsModule],
  controllers: [OpenAiController],
  providers: [OpenAiService, OpenAiErrorFilter],
})
export class OpenAiModule {}
