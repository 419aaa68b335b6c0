import { Inject, Injectable } from '@nestjs/common';
import type { ListSessionsQuery, Page, SessionSummary } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { DB, type Db, providerOf } from '@app/persistence';
import { PLATFORM_CONFIG } from '@app/runtime';
import { afterCursor, decodeCursor, pageSize, toPage } from './page-cursor';

/** A principal's sessions, most recently active first, optionally those whose text matches. */
@Injectable()
export class SessionListRepository {
  /** PostgreSQL compares text case-sensitively unless asked; SQLite's LIKE already ignores ASCII case. */
  private readonly textMode: { mode?: 'insensitive' };

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    this.textMode = providerOf(config.database.url) === 'postgresql' ? { mode: 'insensitive' } : {};
  }

  async list(owner: string | undefined, query: ListSessionsQuery): Promise<Page<SessionSummary>> {
    const limit = pageSize(query.limit);
    const rows = await this.db.session.findMany({
      where: {
        AND: [
          owner === undefined ? {} : { owner },
          query.q ? this.matching(query.q) : {},
          afterCursor('updated_at', decodeCursor(query.cursor)),
        ],
      },
      orderBy: [{ updated_at: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      select: { id: true, agent: true, title: true, created_at: true, updated_at: true },
    });
    return toPage(
      rows,
      limit,
      (row) => ({
        id: row.id,
        agent: row.agent,
        title: row.title,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      }),
      (row) => ({ at: row.updated_at, id: row.id }),
    );
  }

  private matching(text: string) {
    const contains = { contains: text, ...this.textMode };
    return { OR: [{ title: contains }, { messages: { some: { content: contains } } }] };
  }
}
