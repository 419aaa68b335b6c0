import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '@app/contracts';
import {
  constraintViolation,
  DB,
  type Db,
  sql,
  sqlJoin,
  type Sql,
  SQL_WRITER,
  type SqlWriter,
} from '@app/persistence';
import type { JournalEntry } from '@app/agent-core';
import { journalInsert } from './run-journal.repository';
import { WRITTEN_FORMATS } from './run-formats';
import type { NewRun, RunProgress } from './run.repository';
import type { NewMessage } from './session.repository';

/** A session opened by its first run, with the caller-held history as its first messages. */
export interface NewSession {
  id: string;
  agent: string;
  owner: string;
  title: string;
  earlier: NewMessage[];
}

/** A turn's end: the run's final record and the turn's messages after the session's last one. */
export interface TurnEnd {
  runId: string;
  progress: RunProgress;
  sessionId: string;
  messages: NewMessage[];
  /** The session's last sequence number, when the caller knows it: saves a read. */
  lastSeq?: number;
  /** The executor running the run: its end is written only while this executor holds its lease. */
  leaseOwner?: string;
  /** The run's journal entries not written yet: they go in the same transaction. */
  journal?: JournalEntry[];
}

/** How a turn's end went: written, its session deleted meanwhile, or refused (lease lost). */
export type TurnEndWrite = 'written' | 'session_gone' | 'fenced';

const APPEND_ATTEMPTS = 3;

/**
 * The two writes every turn makes, each one transaction: the run's record (with its new session)
 * when it starts, its final record with the turn's messages (and its journal's last entries) when it ends. Raw statements (the same
 * SQL on SQLite and PostgreSQL) on the writer's own connection: a sixth of the CPU of the model queries.
 */
@Injectable()
export class TurnWritesRepository {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
  ) {}

  /**
   * Records a run as `running`, and opens its session when it is new; with `journal`, the run
   * starts with those entries (a fork's, taken from the run it forks).
   */
  async startTurn(run: NewRun, session?: NewSession, journal: JournalEntry[] = []): Promise<void> {
    const now = new Date();
    const insert = sql`INSERT INTO "Run"
      ("id", "session_id", "owner", "agent", "mode", "status", "input", "trace_id", "prompt_tokens", "completion_tokens", "created_at", "updated_at", "lease_owner", "lease_until", "takeovers", "turn_options", "parent_run_id", "key_id", "forked_from", "forked_at_step", "state_format", "journal_format")
      VALUES (${run.id}, ${run.session_id}, ${run.owner}, ${run.agent}, ${run.mode}, 'running', ${run.input}, ${run.trace_id ?? null}, 0, 0, ${now}, ${now}, ${run.lease?.owner ?? null}, ${run.lease?.until ?? null}, 0, ${run.turn_options ? JSON.stringify(run.turn_options) : null}, ${run.parent_run_id ?? null}, ${run.turn_options?.key_id ?? null}, ${run.fork?.from ?? null}, ${run.fork?.step ?? null}, ${WRITTEN_FORMATS.state_format}, ${WRITTEN_FORMATS.journal_format})`;
    try {
      await this.writer.transaction([
        ...(session ? openSession(session, run.id, now) : []),
        insert,
        ...(journal.length ? [journalInsert(run.id, journal, now)] : []),
      ]);
    } catch (err) {
      if (constraintViolation(err) === 'unique')
        throw new ConflictError(`run '${run.id}' already exists`, { run_id: run.id });
      throw err;
    }
  }

  /**
   * Writes the run's final record and appends the turn's messages. Two turns finishing at once on
   * one session race for the same sequence numbers; the loser reads the last one and retries.
   * With a lease owner, the run's update is the transaction's fence: when another executor holds
   * the lease by then, nothing is written.
   */
  async finishTurn(turn: TurnEnd): Promise<TurnEndWrite> {
    let known = turn.lastSeq;
    for (let attempt = 1; ; attempt++) {
      const first = (known ?? (await this.lastSeq(turn.sessionId))) + 1;
      const now = new Date();
      const statements = [
        saveRun(turn.runId, turn.progress, now, turn.leaseOwner),
        ...(turn.journal?.length ? [journalInsert(turn.runId, turn.journal, now)] : []),
        insertMessages(turn.sessionId, turn.runId, turn.messages, first, now),
        sql`UPDATE "Session" SET "updated_at" = ${now} WHERE "id" = ${turn.sessionId}`,
      ];
      try {
        if (turn.leaseOwner === undefined) await this.writer.transaction(statements);
        else if (!(await this.writer.fenced(statements))) return this.whyRefused(turn.runId);
        return 'written';
      } catch (err) {
        const violated = constraintViolation(err);
        if (violated === 'foreign_key') return 'session_gone';
        if (violated !== 'unique' || attempt >= APPEND_ATTEMPTS) throw err;
        known = undefined;
      }
    }
  }

  /** A fenced end changed no row: the run went with its session, or another executor holds it. */
  private async whyRefused(runId: string): Promise<TurnEndWrite> {
    const run = await this.db.run.findUnique({ where: { id: runId }, select: { id: true } });
    return run ? 'fenced' : 'session_gone';
  }

  private async lastSeq(sessionId: string): Promise<number> {
    const last = await this.db.message.findFirst({
      where: { session_id: sessionId },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    return last?.seq ?? 0;
  }
}

function openSession(session: NewSession, runId: string, now: Date): Sql[] {
  const insert = sql`INSERT INTO "Session" ("id", "owner", "agent", "title", "summary_upto", "created_at", "updated_at")
    VALUES (${session.id}, ${session.owner}, ${session.agent}, ${session.title}, 0, ${now}, ${now})`;
  if (session.earlier.length === 0) return [insert];
  return [insert, insertMessages(session.id, runId, session.earlier, 1, now)];
}

function insertMessages(
  sessionId: string,
  runId: string,
  messages: NewMessage[],
  firstSeq: number,
  now: Date,
): Sql {
  const rows = messages.map(
    (m, i) =>
      sql`(${m.id}, ${sessionId}, ${firstSeq + i}, ${m.role}, ${m.content}, ${runId}, ${m.tokens}, ${now})`,
  );
  return sql`INSERT INTO "Message" ("id", "session_id", "seq", "role", "content", "run_id", "tokens", "created_at")
    VALUES ${sqlJoin(rows)}`;
}

function saveRun(id: string, progress: RunProgress, now: Date, leaseOwner?: string): Sql {
  const { status, reply, finish_reason, error, plan, trace, used_tools, usage, total_ms } = progress;
  const done = status !== 'awaiting_approval' && status !== 'running';
  return sql`UPDATE "Run" SET
    "status" = ${status}, "reply" = ${reply}, "finish_reason" = ${finish_reason}, "error" = ${error ?? null},
    "plan" = COALESCE(${plan ? JSON.stringify(plan) : null}, "plan"),
    "trace" = ${JSON.stringify(trace)}, "used_tools" = ${JSON.stringify(used_tools)},
    "prompt_tokens" = ${usage.prompt_tokens}, "completion_tokens" = ${usage.completion_tokens},
    "cached_prompt_tokens" = ${usage.cached_prompt_tokens ?? 0}, "cache_write_tokens" = ${usage.cache_write_tokens ?? 0},
    "cost_usd" = ${usage.cost_usd ?? null},
    "total_ms" = ${total_ms}, "finished_at" = ${done ? now : null}, "updated_at" = ${now}
    WHERE "id" = ${id}${leaseOwner === undefined ? sql`` : sql` AND "lease_owner" = ${leaseOwner}`}`;
}
