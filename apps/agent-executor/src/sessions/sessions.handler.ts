import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { SessionsService } from './sessions.service';

/** NATS in: list, show and delete sessions. */
@Injectable()
export class SessionsHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(SessionsService) private readonly sessions: SessionsService,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [
      answer(Routes.agentSessionList, ({ principal, ...query }) => this.sessions.list(query, principal)),
      answer(Routes.agentSessionGet, (r) => this.sessions.get(r.session_id, r.principal)),
      answer(Routes.agentSessionDelete, (r) => this.sessions.delete(r.session_id, r.principal)),
    ];
  }
}
