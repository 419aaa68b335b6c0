import { Inject, Injectable } from '@nestjs/common';
import type { FinishReason, Plan, RunStatus, RunView, TraceStep, Usage, UsedTools } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import type { DbWrite } from '../common/db-write';

export interface NewRun {
  id: string;
  session_id: string;
  owner: string;
  agent: string;
  mode: string;
  input: string;
  /** The OpenTelemetry trace the turn belongs to (also in the gateway's `traceparent` header). */
  trace_id?: string;
}

/** What a run has gathered so far: written when it pauses or ends. */
export interface RunProgress {
  status: RunStatus;
  reply: string;
  finish_reason: FinishReason;
  error?: string;
  plan?: Plan;
  trace: TraceStep[];
  used_tools: UsedTools;
  usage: Usage;
  total_ms: number;
}

/** A stored run, as much of it as resuming or viewing needs. */
export interface RunRecord {
  id: string;
  session_id: string | null;
  owner: string;
  agent: string;
  status: RunStatus;
  input: string;
  plan: Plan | null;
  trace: TraceStep[];
  used_tools: UsedTools;
  usage: Usage;
  total_ms: number;
}

type Row = NonNullable<Awaited<ReturnType<Db['run']['findUnique']>>>;

/** Runs: created when they start, updated when they pause or end. */
@Injectable()
export class RunRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Records a run as `running`; `before` (e.g. opening its session) lands in the same transaction. */
  async create(run: NewRun, before: DbWrite[] = []): Promise<void> {
    await this.db.$transaction([
      ...before.map((write) => write()),
      this.db.run.create({ data: { ...run, status: 'running' }, select: { id: true } }),
    ]);
  }

  /** Writes a run's progress; a run whose session was deleted meanwhile is simply gone. */
  async save(id: string, progress: RunProgress): Promise<void> {
    await this.saveWrite(id, progress)();
  }

  /** The same write, for a transaction of another repository. */
  saveWrite(id: string, progress: RunProgress): DbWrite {
    const { usage, plan, error, ...rest } = progress;
    const done = progress.status !== 'awaiting_approval' && progress.status !== 'running';
    return () =>
      this.db.run.updateMany({
        where: { id },
        data: {
          ...rest,
          error: error ?? null,
          ...(plan ? { plan: toJson(plan) } : {}),
          trace: toJson(progress.trace),
          used_tools: toJson(progress.used_tools),
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          finished_at: done ? new Date() : null,
        },
      });
  }

  async savePlan(id: string, plan: Plan): Promise<void> {
    await this.db.run.updateMany({ where: { id }, data: { plan: toJson(plan) } });
  }

  /** Moves a run from one status to another only if it is still in the first: true when this caller won. */
  async transition(id: string, from: RunStatus, to: RunStatus): Promise<boolean> {
    const { count } = await this.db.run.updateMany({ where: { id, status: from }, data: { status: to } });
    return count === 1;
  }

  async find(id: string): Promise<RunRecord | null> {
    const row = await this.db.run.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async view(id: string): Promise<{ owner: string; view: RunView } | null> {
    const row = await this.db.run.findUnique({ where: { id } });
    if (!row) return null;
    const record = toRecord(row);
    const view: RunView = {
      id: row.id,
      session_id: row.session_id,
      agent: row.agent,
      mode: row.mode,
      status: record.status,
      input: row.input,
      reply: row.reply,
      finish_reason: row.finish_reason as FinishReason | null,
      error: row.error,
      plan: record.plan,
      trace: record.trace,
      used_tools: record.used_tools,
      usage: record.usage,
      total_ms: row.total_ms,
      created_at: row.created_at.toISOString(),
      finished_at: row.finished_at?.toISOString() ?? null,
    };
    return { owner: row.owner, view };
  }
}

function toRecord(row: Row): RunRecord {
  return {
    id: row.id,
    session_id: row.session_id,
    owner: row.owner,
    agent: row.agent,
    status: row.status as RunStatus,
    input: row.input,
    plan: (row.plan as Plan | null) ?? null,
    trace: (row.trace as TraceStep[] | null) ?? [],
    used_tools: (row.used_tools as UsedTools | null) ?? {},
    usage: { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens },
    total_ms: row.total_ms ?? 0,
  };
}

/** Prisma's Json input type wants plain JSON; our records are. */
function toJson<T>(value: T): object {
  return value as unknown as object;
}
