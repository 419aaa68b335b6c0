import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { SessionsService } from './sessions.service';

/** NATS in: list, show and delete sessions. */
@Injectable()
export class SessionsHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(SessionsService) private readonly sessions: SessionsService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentSessionList, ({ principal, ...query }) =>
      this.sessions.list(query, principal),
    );
    this.bus.serve(Routes.agentSessionGet, (r) => this.sessions.get(r.session_id, r.principal));
    this.bus.serve(Routes.agentSessionDelete, (r) => this.sessions.delete(r.session_id, r.principal));
  }
}
