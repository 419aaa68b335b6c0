import { Module } from '@nestjs/common';
import { SessionHistoryService } from './session-history.service';
import { SessionsHandler } from './sessions.handler';
import { SessionsService } from './sessions.service';
import { StoreModule } from '../store/store.module';

@Module({
  imports: [StoreModule],
  providers: [SessionHistoryService, SessionsService, SessionsHandler],
  exports: [SessionHistoryService],
})
export class SessionsModule {}
