import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type ListSessionsQuery,
  type Page,
  type SessionRefRequest,
  type SessionSummary,
  type SessionView,
  Subjects,
} from '@app/contracts';

const TIMEOUT_MS = 5_000;

/** The caller's sessions; a session's history, and deleting it (its messages and runs go with it). */
@Injectable()
export class SessionsService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  list(query: ListSessionsQuery, principal: string): Promise<Page<SessionSummary>> {
    const request = principal ? { ...query, principal } : query;
    return this.bus.request<Page<SessionSummary>>(Subjects.agentSessionList, request, {
      timeoutMs: TIMEOUT_MS,
      retryOnReconnect: true,
    });
  }

  get(sessionId: string, principal: string): Promise<SessionView> {
    return this.bus.request<SessionView>(Subjects.agentSessionGet, ref(sessionId, principal), {
      timeoutMs: TIMEOUT_MS,
      retryOnReconnect: true,
    });
  }

  async delete(sessionId: string, principal: string): Promise<void> {
    await this.bus.request(Subjects.agentSessionDelete, ref(sessionId, principal), { timeoutMs: TIMEOUT_MS });
  }
}

function ref(sessionId: string, principal: string): SessionRefRequest {
  return principal ? { session_id: sessionId, principal } : { session_id: sessionId };
}
