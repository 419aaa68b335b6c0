import { Module } from '@nestjs/common';
import { ChatController } from './chat.controller';
import { ChatIdempotencyService } from './chat-idempotency.service';
import { ChatService } from './chat.service';
import { ChatRoutingService } from './chat-routing.service';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { RunTakeovers } from './run-takeovers';

@Module({
  controllers: [ChatController],
  providers: [
    ChatService,
    ChatRoutingService,
    ChatIdempotencyService,
    IdempotencyKeyRepository,
    RunTakeovers,
  ],
  exports: [ChatService, RunTakeovers],
})
export class ChatModule {}
