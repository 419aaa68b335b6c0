import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module';
import { SessionsHandler } from './sessions.handler';
import { SessionsService } from './sessions.service';

/** Sessions over the API: listed, viewed, deleted. A turn's own reads and writes are the run host's. */
@Module({
  imports: [StoreModule],
  providers: [SessionsService, SessionsHandler],
})
export class SessionsModule {}
