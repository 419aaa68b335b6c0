import { Module } from '@nestjs/common';
import { SessionHistoryService } from './session-history.service';
import { SessionListRepository } from './session-list.repository';
import { SessionRepository } from './session.repository';
import { SessionsHandler } from './sessions.handler';
import { SessionsService } from './sessions.service';
import { TurnWritesRepository } from './turn-writes.repository';

@Module({
  providers: [
    SessionRepository,
    SessionListRepository,
    SessionHistoryService,
    SessionsService,
    SessionsHandler,
    TurnWritesRepository,
  ],
  exports: [SessionRepository, SessionHistoryService, TurnWritesRepository],
})
export class SessionsModule {}
