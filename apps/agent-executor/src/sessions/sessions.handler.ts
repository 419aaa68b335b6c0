import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { ListSessionsRequest, parseDto, QueueGroups, SessionRefRequest, Subjects } from '@app/contracts';
import { SessionsService } from './sessions.service';

/** NATS in: list, show and delete sessions. */
@Injectable()
export class SessionsHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(SessionsService) private readonly sessions: SessionsService,
  ) {}

  onApplicationBootstrap(): void {
    const queue = QueueGroups.executor;
    this.bus.serve(
      Subjects.agentSessionList,
      (data) => {
        const { principal, ...query } = parseDto(ListSessionsRequest, data);
        return this.sessions.list(query, principal);
      },
      { queue },
    );
    this.bus.serve(
      Subjects.agentSessionGet,
      (data) => {
        const request = parseDto(SessionRefRequest, data);
        return this.sessions.get(request.session_id, request.principal);
      },
      { queue },
    );
    this.bus.serve(
      Subjects.agentSessionDelete,
      (data) => {
        const request = parseDto(SessionRefRequest, data);
        return this.sessions.delete(request.session_id, request.principal);
      },
      { queue },
    );
  }
}
