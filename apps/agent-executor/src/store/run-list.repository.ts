import { Inject, Injectable } from '@nestjs/common';
import type { FinishReason, ListRunsQuery, Page, RunStatus, RunSummary } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import { afterCursor, decodeCursor, pageSize, toPage } from './page-cursor';

/** A principal's runs, newest first, filtered by session, status and agent. */
@Injectable()
export class RunListRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async list(owner: string | undefined, query: ListRunsQuery): Promise<Page<RunSummary>> {
    const limit = pageSize(query.limit);
    const rows = await this.db.run.findMany({
      where: {
        AND: [
          owner === undefined ? {} : { owner },
          query.session_id ? { session_id: query.session_id } : {},
          query.status ? { status: query.status } : {},
          query.agent ? { agent: query.agent } : {},
          afterCursor('created_at', decodeCursor(query.cursor)),
        ],
      },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      select: {
        id: true,
        session_id: true,
        agent: true,
        mode: true,
        status: true,
        input: true,
        finish_reason: true,
        total_ms: true,
        created_at: true,
        finished_at: true,
      },
    });
    return toPage(
      rows,
      limit,
      (row) => ({
        ...row,
        status: row.status as RunStatus,
        finish_reason: row.finish_reason as FinishReason | null,
        created_at: row.created_at.toISOString(),
        finished_at: row.finished_at?.toISOString() ?? null,
      }),
      (row) => ({ at: row.created_at, id: row.id }),
    );
  }
}
