import { Inject, Injectable } from '@nestjs/common';
import {
  type ClientTool,
  type FinishReason,
  type Plan,
  type Scope,
  type RunStatus,
  type TraceStep,
  type Usage,
  type UsedTools,
} from '@app/contracts';
import { DB, type Db, toJson } from '@app/persistence';
import type { HeldApproval, PlanDecision } from './held-approval';
import { WRITTEN_FORMATS } from './run-formats';

export interface NewRun {
  id: string;
  session_id: string;
  owner: string;
  agent: string;
  mode: string;
  input: string;
  /** The OpenTelemetry trace the turn belongs to (also in the gateway's `traceparent` header). */
  trace_id?: string;
  /** The executor that runs it, and until when (renewed by its heartbeat). */
  lease?: { owner: string; until: Date };
  /** What an executor taking the run over needs to carry it on as the caller asked. */
  turn_options?: TurnOptions;
  /** The run whose function call started this one (an agent called as a function). */
  parent_run_id?: string;
  /** A fork: the run it came from, and the step it goes live at. */
  fork?: { from: string; step: number };
}

export interface TurnOptions {
  scopes?: Scope[];
  /** The API key the run is done for: a run taken up again goes on for it. */
  key_id?: string;
  instructions?: string;
  /** Its plan was approved: a run taken over carries the plan out without holding it again. */
  approved?: boolean;
  /** Called as a function: its chain of agents and its caller's bounds, which a takeover keeps. */
  lineage?: RunLineage;
  /** The caller's own tools: the run offers them again when it goes on with their results. */
  client_tools?: ClientTool[];
}

/**
 * Where a run called as a function comes from, and what its caller may still spend: the child
 * gets no more time, tokens or money than its parent has left.
 */
export interface RunLineage {
  /** The calling run, when the call came from one (absent for an API client or a scheduled task). */
  parentRunId?: string;
  /** The agents above the run, outermost first. */
  chain: string[];
  /** Epoch ms by which the call must be answered. */
  deadline: number;
  tokensLeft?: number;
  costLeftUsd?: number;
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
  takeovers: number;
  /** The executor instance holding the run while it runs (interrupts and messages go there). */
  lease_owner: string | null;
  turn_options: TurnOptions;
  /** Calls held for approval, with the decisions taken on them. */
  approvals: HeldApproval[];
  /** The decision on its plan held whole (`plan_approval`), once taken. */
  plan_decision: PlanDecision | null;
  /** The row's last write: a decision lands only on the row as its decider read it. */
  updated_at: Date;
  /** The formats its last executor wrote it in (`requireReadable` before carrying it on). */
  state_format: number;
  journal_format: number;
  /** What the run's view shows besides. */
  mode: string;
  reply: string | null;
  finish_reason: FinishReason | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  trace_id: string | null;
  parent_run_id: string | null;
  /** A fork: the run it was forked from, and the step it went live at. */
  forked_from: string | null;
  forked_at_step: number | null;
}

type Row = NonNullable<Awaited<ReturnType<Db['run']['findUnique']>>>;

/** Runs: created and ended with their turn's writes (`TurnWritesRepository`), updated when they pause. */
@Injectable()
export class RunRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * Writes a run's progress; a run whose session was deleted meanwhile is simply gone. With a lease
   * owner, only while that executor holds the run's lease: false when it wrote nothing.
   */
  async save(id: string, progress: RunProgress, leaseOwner?: string): Promise<boolean> {
    const { status, reply, finish_reason, error, plan, trace, used_tools, usage, total_ms } = progress;
    const done = status !== 'awaiting_approval' && status !== 'running';
    const { count } = await this.db.run.updateMany({
      where: { id, ...(leaseOwner === undefined ? {} : { lease_owner: leaseOwner }) },
      data: {
        status,
        reply,
        finish_reason,
        error: error ?? null,
        ...(plan ? { plan: toJson(plan) } : {}),
        trace: toJson(trace),
        used_tools: toJson(used_tools),
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        cached_prompt_tokens: usage.cached_prompt_tokens ?? 0,
        cache_write_tokens: usage.cache_write_tokens ?? 0,
        cost_usd: usage.cost_usd ?? null,
        total_ms,
        finished_at: done ? new Date() : null,
      },
    });
    return count === 1;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.run.count({ where: { id } })) === 1;
  }

  /**
   * Ends, as failed, runs still `running` without a lease (recorded before leases existed) that
   * nothing has written since `staleBefore`: their executor stopped mid-run (a live run writes at
   * least every run timeout). Returns how many. A leased run is taken over instead.
   */
  async failStale(staleBefore: Date, error: string): Promise<number> {
    const { count } = await this.db.run.updateMany({
      where: { status: 'running', lease_until: null, updated_at: { lt: staleBefore } },
      data: { status: 'failed', finish_reason: 'error', error, finished_at: new Date() },
    });
    return count;
  }

  /** With a lease owner, only while that executor holds the run's lease: false when it wrote nothing. */
  async savePlan(id: string, plan: Plan, leaseOwner?: string): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, ...(leaseOwner === undefined ? {} : { lease_owner: leaseOwner }) },
      data: { plan: toJson(plan) },
    });
    return count > 0;
  }

  /**
   * Moves a run from one status to another only if it is still in the first: true when this caller
   * won. With a lease, the run is leased in the same statement (a run back to `running` is never
   * seen running with a lapsed lease, which another executor would take over).
   */
  async transition(
    id: string,
    from: RunStatus,
    to: RunStatus,
    lease?: { owner: string; until: Date },
  ): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: from },
      data: {
        status: to,
        ...(lease ? { lease_owner: lease.owner, lease_until: lease.until, ...WRITTEN_FORMATS } : {}),
      },
    });
    return count === 1;
  }

  async find(id: string): Promise<RunRecord | null> {
    const row = await this.db.run.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
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
    usage: {
      prompt_tokens: row.prompt_tokens,
      completion_tokens: row.completion_tokens,
      ...(row.cached_prompt_tokens > 0 ? { cached_prompt_tokens: row.cached_prompt_tokens } : {}),
      ...(row.cache_write_tokens > 0 ? { cache_write_tokens: row.cache_write_tokens } : {}),
      ...(row.cost_usd === null ? {} : { cost_usd: row.cost_usd }),
    },
    total_ms: row.total_ms ?? 0,
    takeovers: row.takeovers,
    lease_owner: row.lease_owner,
    turn_options: (row.turn_options as TurnOptions | null) ?? {},
    approvals: (row.approvals as HeldApproval[] | null) ?? [],
    plan_decision: (row.plan_decision as PlanDecision | null) ?? null,
    updated_at: row.updated_at,
    state_format: row.state_format,
    journal_format: row.journal_format,
    mode: row.mode,
    reply: row.reply,
    finish_reason: row.finish_reason as FinishReason | null,
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
    trace_id: row.trace_id,
    parent_run_id: row.parent_run_id,
    forked_from: row.forked_from,
    forked_at_step: row.forked_at_step,
  };
}
