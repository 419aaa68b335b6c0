import { Inject, Injectable } from '@nestjs/common';
import { memoryTerms } from '@app/agent-core';
import {
  InvalidParamsError,
  type MemoryForgetQuery,
  type MemoryForgetReply,
  type MemorySearchQuery,
  type MemorySearchReply,
  NotFoundError,
} from '@app/contracts';
import { requireOwner } from '../common/ownership';
import { RunRepository } from '../store/run.repository';
import { SessionRepository } from '../store/session.repository';
import { MemoryIndexService } from './memory-index.service';

const DEFAULT_LIMIT = 10;

/**
 * A caller's long-term memory over the API: searching all of it, and forgetting all of it or one
 * session's or run's (another principal's session or run does not exist for the caller).
 */
@Injectable()
export class MemoryService {
  constructor(
    @Inject(MemoryIndexService) private readonly segments: MemoryIndexService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(RunRepository) private readonly runs: RunRepository,
  ) {}

  async search(query: MemorySearchQuery, principal = ''): Promise<MemorySearchReply> {
    const terms = memoryTerms(query.q);
    if (terms.length === 0)
      throw new InvalidParamsError(
        [{ field: 'q', message: 'must contain a word to look for' }],
        'invalid query',
      );
    const chunks = await this.segments.search({ principal }, terms, query.limit ?? DEFAULT_LIMIT);
    return { chunks };
  }

  async forget(query: MemoryForgetQuery, principal = ''): Promise<MemoryForgetReply> {
    if (query.session_id) {
      const session = await this.sessions.find(query.session_id);
      if (!session) throw new NotFoundError('session', query.session_id);
      requireOwner('session', session.id, session.owner, principal);
    }
    if (query.run_id) {
      const run = await this.runs.find(query.run_id);
      if (!run) throw new NotFoundError('run', query.run_id);
      requireOwner('run', run.id, run.owner, principal);
    }
    const deleted = await this.segments.forget(principal, {
      sessionId: query.session_id,
      runId: query.run_id,
    });
    return { deleted };
  }
}
