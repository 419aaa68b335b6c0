import { Inject, Injectable } from '@nestjs/common';
import { JOURNAL_FORMAT, type JournalEntry, type StoredJournalEntry } from '@app/agent-core';
import { DB, type Db, sql, sqlJoin, type Sql, SQL_WRITER, type SqlWriter } from '@app/persistence';

type StoredRow = NonNullable<Awaited<ReturnType<Db['runJournalEntry']['findFirst']>>>;

/**
 * RunJournalEntry rows: a run's completed model steps and tool calls, in `seq` order, each with the
 * journal format it was written in (this engine's `JOURNAL_FORMAT`); read back as stored, for the
 * engine to upgrade (`readJournal`). Appending is one raw statement on the driver (as the turn's
 * other writes): through Prisma's client it cost seven times the CPU (bench/journal).
 */
@Injectable()
export class RunJournalRepository {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SQL_WRITER) private readonly writer: SqlWriter,
  ) {}

  /** Appends entries in one statement; a `seq` already taken (another writer of the run) fails it. */
  async append(runId: string, entries: JournalEntry[]): Promise<void> {
    await this.writer.transaction([journalInsert(runId, entries, new Date())]);
  }

  /** The last `seq` journaled for the run; 0 when none. */
  async lastSeq(runId: string): Promise<number> {
    const last = await this.db.runJournalEntry.findFirst({
      where: { run_id: runId },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    return last?.seq ?? 0;
  }

  /** When and how long each entry took, without its text: a run's waterfall. */
  async timings(runId: string): Promise<JournalTiming[]> {
    const rows = await this.db.runJournalEntry.findMany({
      where: { run_id: runId },
      orderBy: { seq: 'asc' },
      select: {
        kind: true,
        step: true,
        call_index: true,
        name: true,
        status: true,
        prompt_tokens: true,
        completion_tokens: true,
        elapsed_ms: true,
        created_at: true,
        data: true,
      },
    });
    return rows.map(({ data, ...row }) => {
      const d = (data ?? {}) as { executed?: unknown; cached_prompt_tokens?: unknown };
      return {
        ...row,
        executed: d.executed !== false,
        ...(typeof d.cached_prompt_tokens === 'number'
          ? { cached_prompt_tokens: d.cached_prompt_tokens }
          : {}),
      };
    });
  }

  /** The run's entries as stored, each with its format: `readJournal` makes them this engine's. */
  async load(runId: string): Promise<StoredJournalEntry[]> {
    const rows = await this.db.runJournalEntry.findMany({
      where: { run_id: runId },
      orderBy: { seq: 'asc' },
    });
    return rows.map(toEntry);
  }
}

/** One journal entry's place on the run's clock (written when it completed) and what it spent. */
export interface JournalTiming {
  kind: string;
  step: number;
  call_index: number | null;
  name: string | null;
  status: string | null;
  prompt_tokens: number;
  /** A model step's: of its prompt tokens, those the provider's cache served. */
  cached_prompt_tokens?: number;
  completion_tokens: number;
  elapsed_ms: number;
  created_at: Date;
  /** A call's: false when it was refused or answered before it reached a provider. */
  executed: boolean;
}

/** The statement appending entries: on its own, or in the transaction that ends the run. */
export function journalInsert(runId: string, entries: JournalEntry[], now: Date): Sql {
  const rows = entries.map((entry) => rowOf(runId, entry, now));
  return sql`INSERT INTO "RunJournalEntry" ("run_id", "seq", "kind", "step", "call_index", "name", "status", "data", "prompt_tokens", "completion_tokens", "elapsed_ms", "created_at", "format")
    VALUES ${sqlJoin(rows)}`;
}

function rowOf(runId: string, entry: JournalEntry, now: Date) {
  const { seq, kind, step, elapsedMs } = entry;
  const format = JOURNAL_FORMAT;
  if (kind === 'model_step') {
    const { prompt_tokens: prompt, completion_tokens: completion, ...cache } = entry.usage;
    // the prompt cache's counts, when the provider gave some, with the step's data
    const data = JSON.stringify({
      text: entry.text,
      tool_calls: entry.toolCalls,
      stop_reason: entry.stopReason,
      ...cache,
    });
    return sql`(${runId}, ${seq}, ${kind}, ${step}, ${null}, ${null}, ${null}, ${data}, ${prompt}, ${completion}, ${elapsedMs}, ${now}, ${format})`;
  }
  if (kind === 'tool_started') {
    const { index, name, args } = entry;
    return sql`(${runId}, ${seq}, ${kind}, ${step}, ${index}, ${name}, ${null}, ${JSON.stringify({ args })}, ${0}, ${0}, ${elapsedMs}, ${now}, ${format})`;
  }
  if (kind === 'user_message') {
    return sql`(${runId}, ${seq}, ${kind}, ${step}, ${null}, ${null}, ${null}, ${JSON.stringify({ text: entry.text })}, ${0}, ${0}, ${elapsedMs}, ${now}, ${format})`;
  }
  const { index, name, status, callId, args, observation, error, executed } = entry;
  const data = JSON.stringify({ call_id: callId, args, observation, error, executed });
  return sql`(${runId}, ${seq}, ${kind}, ${step}, ${index}, ${name}, ${status}, ${data}, ${0}, ${0}, ${elapsedMs}, ${now}, ${format})`;
}

/** A row as the entry it stores, in the format it was written in (a field only a later format has is absent). */
function toEntry(row: StoredRow): StoredJournalEntry {
  const common = { format: row.format, seq: row.seq, step: row.step, elapsedMs: row.elapsed_ms };
  const data = row.data as Record<string, unknown>;
  if (row.kind === 'model_step') {
    return {
      ...common,
      kind: 'model_step',
      text: data.text,
      toolCalls: data.tool_calls,
      usage: {
        prompt_tokens: row.prompt_tokens,
        completion_tokens: row.completion_tokens,
        ...(typeof data.cached_prompt_tokens === 'number'
          ? { cached_prompt_tokens: data.cached_prompt_tokens }
          : {}),
        ...(typeof data.cache_write_tokens === 'number'
          ? { cache_write_tokens: data.cache_write_tokens }
          : {}),
      },
      ...(data.stop_reason === undefined ? {} : { stopReason: data.stop_reason }),
    };
  }
  if (row.kind === 'tool_started') {
    return {
      ...common,
      kind: 'tool_started',
      index: row.call_index ?? 0,
      name: row.name ?? '',
      args: data.args,
    };
  }
  if (row.kind === 'user_message') return { ...common, kind: 'user_message', text: data.text };
  return {
    ...common,
    kind: 'tool_call',
    index: row.call_index ?? 0,
    name: row.name ?? '',
    ...(typeof data.call_id === 'string' ? { callId: data.call_id } : {}),
    args: data.args,
    status: row.status === 'success' ? 'success' : 'error',
    observation: data.observation,
    ...(data.error ? { error: data.error } : {}),
    executed: data.executed === true,
  };
}
