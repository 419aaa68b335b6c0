import { Inject, Injectable } from '@nestjs/common';
import {
  type ListSessionsQuery,
  NotFoundError,
  type Page,
  type SessionSummary,
  type SessionView,
} from '@app/contracts';
import { requireOwner } from '../common/ownership';
import { SessionListRepository } from '../store/session-list.repository';
import { SessionRepository } from '../store/session.repository';

/** A principal's sessions; a session as its owner sees it, and deleting it with its messages and runs. */
@Injectable()
export class SessionsService {
  constructor(
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionListRepository) private readonly listing: SessionListRepository,
  ) {}

  /** No principal means authentication is off: every session is listed. */
  list(query: ListSessionsQuery, principal?: string): Promise<Page<SessionSummary>> {
    return this.listing.list(principal || undefined, query);
  }

  async get(id: string, principal?: string): Promise<SessionView> {
    const found = await this.sessions.view(id);
    if (!found) throw new NotFoundError('session', id);
    requireOwner('session', id, found.owner, principal);
    return found.view;
  }

  async delete(id: string, principal?: string): Promise<{ deleted: true }> {
    const session = await this.sessions.find(id);
    if (!session) throw new NotFoundError('session', id);
    requireOwner('session', id, session.owner, principal);
    await this.sessions.delete(id);
    return { deleted: true };
  }
}
