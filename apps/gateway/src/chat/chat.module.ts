import { Module } from '@nestjs/common';
import { ChatController } from './chat.controller';
import { ChatIdempotencyService } from './chat-idempotency.service';
import { ChatService } from './chat.service';
import { ChatRoutingService } from './chat-routing.service';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { RunTakeovers } from './run-takeovers';
import { RunEventLog } from './run-event-log';

@Module({
  controllers: [ChatController],
  providers: [
    ChatService,
    ChatRoutingService,
    ChatIdempotencyService,
    IdempotencyKeyRepository,
    RunTakeovers,
    RunEventLog,
  ],
  exports: [ChatService, RunTakeovers, RunEventLog],
})
export class ChatModule {}
