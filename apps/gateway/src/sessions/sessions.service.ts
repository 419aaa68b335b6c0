import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type ListSessionsQuery,
  type Page,
  Routes,
  type SessionRefRequest,
  type SessionSummary,
  type SessionView,
} from '@app/contracts';

/** The caller's sessions; a session's history, and deleting it (its messages and runs go with it). */
@Injectable()
export class SessionsService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  list(query: ListSessionsQuery, principal: string): Promise<Page<SessionSummary>> {
    return this.bus.request(Routes.agentSessionList, principal ? { ...query, principal } : query);
  }

  get(sessionId: string, principal: string): Promise<SessionView> {
    return this.bus.request(Routes.agentSessionGet, ref(sessionId, principal));
  }

  async delete(sessionId: string, principal: string): Promise<void> {
    await this.bus.request(Routes.agentSessionDelete, ref(sessionId, principal));
  }
}

function ref(sessionId: string, principal: string): SessionRefRequest {
  return principal ? { session_id: sessionId, principal } : { session_id: sessionId };
}
