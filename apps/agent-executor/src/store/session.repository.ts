import { Inject, Injectable } from '@nestjs/common';
import { roundUsd } from '@app/agent-core';
import type { SessionView } from '@app/contracts';
import { DB, type Db, sql, SQL_WRITER, type SqlWriter } from '@app/persistence';

export interface SessionRecord {
  id: string;
  agent: string;
  owner: string;
  summary: string | null;
  summary_upto: number;
}

export interface StoredMessage {
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  tokens: number;
}

export interface NewMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  tokens: number;
}

const VIEW_MESSAGES = 1_000;

/** Sessions and their messages (a turn's own writes are `TurnWritesRepository`'s). */
@Injectable()
export class SessionRepository {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
  ) {}

  /** A turn's reads (this and `messagesAfter`) are raw, on the turn writer's connection: Prisma compiles every query. */
  async find(id: string): Promise<SessionRecord | null> {
    const [session] = await this.writer.query<SessionRecord>(
      sql`SELECT "id", "agent", "owner", "summary", "summary_upto" FROM "Session" WHERE "id" = ${id}`,
    );
    return session ?? null;
  }

  /** The newest `limit` messages after `afterSeq`, oldest first. */
  async messagesAfter(sessionId: string, afterSeq: number, limit: number): Promise<StoredMessage[]> {
    const rows = await this.writer.query<StoredMessage>(
      sql`SELECT "seq", "role", "content", "tokens" FROM "Message"
        WHERE "session_id" = ${sessionId} AND "seq" > ${afterSeq} ORDER BY "seq" DESC LIMIT ${limit}`,
    );
    return rows.reverse();
  }

  /**
   * The newest `limit` messages of the session before run `run`'s own message, oldest first: what
   * the run read as its history (its session went on since; a session the run opened holds the
   * caller's earlier messages under its id too). A run that wrote no message yet is placed by its
   * start (messages opening its session are written with it).
   */
  async messagesBeforeRun(
    sessionId: string,
    run: { id: string; input: string; created_at: Date },
    limit: number,
  ): Promise<StoredMessage[]> {
    const own = await this.db.message.findFirst({
      where: { session_id: sessionId, run_id: run.id, role: 'user', content: run.input },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    const rows = await this.db.message.findMany({
      where: {
        session_id: sessionId,
        ...(own ? { seq: { lt: own.seq } } : { created_at: { lte: run.created_at } }),
      },
      orderBy: { seq: 'desc' },
      take: limit,
      select: { seq: true, role: true, content: true, tokens: true },
    });
    return (rows as StoredMessage[]).reverse();
  }

  async saveSummary(sessionId: string, summary: string, upto: number): Promise<void> {
    await this.db.session.updateMany({ where: { id: sessionId }, data: { summary, summary_upto: upto } });
  }

  async view(id: string): Promise<{ owner: string; view: SessionView } | null> {
    const session = await this.db.session.findUnique({
      where: { id },
      include: { messages: { orderBy: { seq: 'asc' }, take: VIEW_MESSAGES } },
    });
    if (!session) return null;
    const view: SessionView = {
      id: session.id,
      agent: session.agent,
      title: session.title,
      summary: session.summary,
      created_at: session.created_at.toISOString(),
      updated_at: session.updated_at.toISOString(),
      cost_so_far: (await this.cost(id)) ?? null,
      active_runs: (await this.activeRuns(id)).map((run) => run.id),
      messages: session.messages.map((m) => ({
        seq: m.seq,
        role: m.role as 'user' | 'assistant',
        content: m.content,
        run_id: m.run_id,
        created_at: m.created_at.toISOString(),
      })),
    };
    return { owner: session.owner, view };
  }

  /** The session's runs going now (not paused, not ended), oldest first, with their requests and holders. */
  activeRuns(id: string): Promise<{ id: string; input: string; lease_owner: string | null }[]> {
    return this.db.run.findMany({
      where: { session_id: id, status: 'running' },
      orderBy: { created_at: 'asc' },
      select: { id: true, input: true, lease_owner: true },
    });
  }

  /** What the session's runs have cost so far in USD; undefined when none of them had a price. */
  async cost(id: string): Promise<number | undefined> {
    const { _sum } = await this.db.run.aggregate({ where: { session_id: id }, _sum: { cost_usd: true } });
    return _sum.cost_usd === null ? undefined : roundUsd(_sum.cost_usd);
  }

  async delete(id: string): Promise<boolean> {
    const { count } = await this.db.session.deleteMany({ where: { id } });
    return count > 0;
  }
}
