import { Inject, Injectable } from '@nestjs/common';
import type { SessionView } from '@app/contracts';
import { constraintViolation, DB, type Db, sql, sqlJoin, sqlWriter, type SqlWriter } from '@app/persistence';
import type { DbWrite } from '../common/db-write';

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

const APPEND_ATTEMPTS = 3;
const VIEW_MESSAGES = 1_000;

/** Sessions and their messages. */
@Injectable()
export class SessionRepository {
  private readonly writer: SqlWriter;

  constructor(@Inject(DB) private readonly db: Db) {
    this.writer = sqlWriter(db);
  }

  find(id: string): Promise<SessionRecord | null> {
    return this.db.session.findUnique({
      where: { id },
      select: { id: true, agent: true, owner: true, summary: true, summary_upto: true },
    });
  }

  /** The write that opens a session, for the transaction that records its first run. */
  createWrite({
    id,
    agent,
    owner,
    title,
  }: {
    id: string;
    agent: string;
    owner: string;
    title: string;
  }): DbWrite {
    const now = new Date();
    return sql`INSERT INTO "Session" ("id", "owner", "agent", "title", "summary_upto", "created_at", "updated_at")
      VALUES (${id}, ${owner}, ${agent}, ${title}, 0, ${now}, ${now})`;
  }

  /** The newest `limit` messages after `afterSeq`, oldest first. */
  async messagesAfter(sessionId: string, afterSeq: number, limit: number): Promise<StoredMessage[]> {
    const rows = await this.db.message.findMany({
      where: { session_id: sessionId, seq: { gt: afterSeq } },
      orderBy: { seq: 'desc' },
      take: limit,
      select: { seq: true, role: true, content: true, tokens: true },
    });
    return rows.reverse() as StoredMessage[];
  }

  /**
   * Appends one turn's messages after the session's last one, in one transaction with `alongside`
   * (the run's final record). `lastSeq`, when the caller knows it, saves a read. Two turns finishing
   * at once on one session race for the same sequence numbers; the loser reads the last one and
   * retries. False when the session was deleted meanwhile (its runs went with it).
   */
  async appendTurn(
    sessionId: string,
    runId: string,
    messages: NewMessage[],
    alongside: DbWrite[] = [],
    lastSeq?: number,
  ): Promise<boolean> {
    let known = lastSeq;
    for (let attempt = 1; ; attempt++) {
      const first = (known ?? (await this.lastSeq(sessionId))) + 1;
      const now = new Date();
      try {
        // Raw statements on the driver: this runs on every turn.
        await this.writer.transaction([
          ...alongside,
          this.messagesWrite(sessionId, runId, messages, first, now),
          sql`UPDATE "Session" SET "updated_at" = ${now} WHERE "id" = ${sessionId}`,
        ]);
        return true;
      } catch (err) {
        const violated = constraintViolation(err);
        if (violated === 'foreign_key') return false;
        if (violated !== 'unique' || attempt >= APPEND_ATTEMPTS) throw err;
        known = undefined;
      }
    }
  }

  /** Inserts messages numbered from `firstSeq` (also a new session's caller-held history). */
  messagesWrite(
    sessionId: string,
    runId: string,
    messages: NewMessage[],
    firstSeq = 1,
    now = new Date(),
  ): DbWrite {
    const rows = messages.map(
      (m, i) =>
        sql`(${m.id}, ${sessionId}, ${firstSeq + i}, ${m.role}, ${m.content}, ${runId}, ${m.tokens}, ${now})`,
    );
    return sql`INSERT INTO "Message" ("id", "session_id", "seq", "role", "content", "run_id", "tokens", "created_at")
      VALUES ${sqlJoin(rows)}`;
  }

  private async lastSeq(sessionId: string): Promise<number> {
    const last = await this.db.message.findFirst({
      where: { session_id: sessionId },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    return last?.seq ?? 0;
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

  async delete(id: string): Promise<boolean> {
    const { count } = await this.db.session.deleteMany({ where: { id } });
    return count > 0;
  }
}
