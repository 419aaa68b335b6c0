import { Inject, Injectable } from '@nestjs/common';
import type { JournalEntry, ModelStepEntry, ToolCallEntry } from '@app/agent-core';
import { DB, type Db, type Prisma } from '@app/persistence';

type Row = Prisma.RunJournalEntryCreateManyInput;
type StoredRow = NonNullable<Awaited<ReturnType<Db['runJournalEntry']['findFirst']>>>;

/** RunJournalEntry rows: a run's completed model steps and tool calls, in `seq` order. */
@Injectable()
export class RunJournalRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Appends entries in one statement; a `seq` already taken (another writer of the run) fails it. */
  async append(runId: string, entries: JournalEntry[]): Promise<void> {
    await this.db.runJournalEntry.createMany({ data: entries.map((entry) => toRow(runId, entry)) });
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

  async load(runId: string): Promise<JournalEntry[]> {
    const rows = await this.db.runJournalEntry.findMany({
      where: { run_id: runId },
      orderBy: { seq: 'asc' },
    });
    return rows.map(toEntry);
  }
}

function toRow(runId: string, entry: JournalEntry): Row {
  const common = {
    run_id: runId,
    seq: entry.seq,
    kind: entry.kind,
    step: entry.step,
    elapsed_ms: entry.elapsedMs,
  };
  if (entry.kind === 'model_step') {
    return {
      ...common,
      data: json({ text: entry.text, tool_calls: entry.toolCalls }),
      prompt_tokens: entry.usage.prompt_tokens,
      completion_tokens: entry.usage.completion_tokens,
    };
  }
  const { callId, args, observation, error, executed } = entry;
  return {
    ...common,
    call_index: entry.index,
    name: entry.name,
    status: entry.status,
    data: json({ call_id: callId, args, observation, error, executed }),
  };
}

function toEntry(row: StoredRow): JournalEntry {
  const common = { seq: row.seq, step: row.step, elapsedMs: row.elapsed_ms };
  const data = row.data as Record<string, unknown>;
  if (row.kind === 'model_step') {
    return {
      ...common,
      kind: 'model_step',
      text: data.text as string,
      toolCalls: data.tool_calls as ModelStepEntry['toolCalls'],
      usage: { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens },
    };
  }
  const tool = data as Pick<ToolCallEntry, 'args' | 'observation' | 'error'>;
  return {
    ...common,
    kind: 'tool_call',
    index: row.call_index ?? 0,
    name: row.name ?? '',
    ...(typeof data.call_id === 'string' ? { callId: data.call_id } : {}),
    args: tool.args,
    status: row.status === 'success' ? 'success' : 'error',
    observation: tool.observation,
    ...(tool.error ? { error: tool.error } : {}),
    executed: data.executed === true,
  };
}

/** Entries hold plain JSON data (the model's reply, typed arguments, an observation string). */
function json(value: Record<string, unknown>): Prisma.InputJsonObject {
  return value as Prisma.InputJsonObject;
}
