import { Module } from '@nestjs/common';
import { ChatController } from './chat.controller';
import { ChatIdempotencyService } from './chat-idempotency.service';
import { ChatService } from './chat.service';
import { IdempotencyKeyRepository } from './idempotency-key.repository';

@Module({
  controllers: [ChatController],
  providers: [ChatService, ChatIdempotencyService, IdempotencyKeyRepository],
  exports: [ChatService],
})
export class ChatModule {}
