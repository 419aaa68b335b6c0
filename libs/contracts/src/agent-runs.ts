import { IsScopes, type Scope } from './api-keys';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PendingApproval, REASON_MAX, ToolDecision } from './approvals';
import { FINISH_REASONS, type FinishReason, ID_PATTERN, type RoutingDecision, Usage } from './agent';

/**
 * Body of `agent.runs.get` and `.cancel`. With a `principal`, only that principal's
 * runs are found (another's is `not_found`); without one (authentication off) every run is.
 */
export class RunRefRequest {
  @IsString() @Matches(ID_PATTERN) run_id!: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

/** Body of `agent.interrupt.<executor>`: the run to stop, held by that executor. */
export class RunInterruptRequest {
  @IsString() @Matches(ID_PATTERN) run_id!: string;
}

/** A run named with who decides its held plan, set by the gateway, for the run's record. */
export class RunDeciderRequest extends RunRefRequest {
  /** The deciding key's principal. */
  @IsOptional() @IsString() @MaxLength(128) decider?: string;
  /** The deciding API key's id (never its secret). */
  @IsOptional() @IsString() @MaxLength(64) decider_key?: string;
}

/** Body of `agent.runs.reject`: a plan held whole, rejected (the caller's reason recorded with the decision). */
export class RunRejectRequest extends RunDeciderRequest {
  @IsOptional() @IsString() @MaxLength(REASON_MAX) reason?: string;
}

/** Body of `agent.runs.approve`; with `stream`, the rest of the run is published as events. */
export class RunApproveRequest extends RunDeciderRequest {
  @IsOptional() @IsBoolean() stream?: boolean;
  /** The approving caller's scopes, which bound the plan's function calls as a turn's. */
  @IsOptional() @IsScopes() scopes?: Scope[];
  /**
   * A decision on a held function call, which names its own decider (a plan is approved without
   * one, and `decider`/`decider_key` say who approved it).
   */
  @IsOptional() @ValidateNested() @Type(() => ToolDecision) decision?: ToolDecision;
}

/** Body of `agent.sessions.get` and `.delete`; `principal` as for runs. */
export class SessionRefRequest {
  @IsString() @Matches(ID_PATTERN) session_id!: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export const RUN_STATUSES = [
  'running',
  'awaiting_approval',
  'awaiting_tool_results',
  'completed',
  'failed',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const TRACE_STEP_KINDS = [
  'action',
  'final',
  'parse_error',
  'llm_error',
  'plan',
  'replan',
  'plan_step',
  'summary',
  'history_summary',
  'client_tool_call',
  'hook',
  /** Another executor took the run over (its executor stopped) and carried it on from `step`. */
  'takeover',
  /** A message the caller added while the run ran; it reached the model at `step`. */
  'user_message',
  /** Where a message without a run id went (`join` or `new`), and why. */
  'routing',
  /** A decision on a call held for approval, or on the plan held whole (`decision`: who took it, what, when), at the call's or the plan's step. */
  'approval',
] as const;

/** A `hook` step: which hook ran, how it ended (`ok`, `error`, `timeout`) and what it decided. */
export interface HookTrace {
  event: string;
  /** `function:<name>` or the webhook's origin and path. */
  target: string;
  outcome: 'ok' | 'error' | 'timeout';
  /** `before_tool`: allow, deny or rewrite. */
  decision?: string;
  /** The hook failed and its policy let the run go on (`fail_open`) or stopped it (`fail_closed`). */
  policy?: string;
}

export const APPROVAL_DECISION_KINDS = ['call', 'plan'] as const;

/**
 * A person's decision on a held function call (`kind: 'call'`), or on a run's whole plan held for
 * approval (`kind: 'plan'`, the agent's `plan_approval`): who decided what, and when.
 */
export class ApprovalDecisionView {
  @IsIn(APPROVAL_DECISION_KINDS) kind!: (typeof APPROVAL_DECISION_KINDS)[number];
  /** The held call's id; for a plan, `plan:<revision>` (0 for the plan first written). */
  @IsString() call_id!: string;
  /** The function the held call called; empty for a plan. */
  @IsString() function!: string;
  /** A plan is approved or rejected (never answered, and it has no timeout). */
  @IsIn(['approve', 'reject', 'respond', 'timeout']) action!: 'approve' | 'reject' | 'respond' | 'timeout';
  /** The deciding key's principal; empty with authentication off or for a timeout's default. */
  @IsString() by!: string;
  /** The deciding API key's id (never its secret); absent for a timeout's default or with authentication off. */
  @IsOptional() @IsString() key_id?: string;
  @IsString() at!: string;
  /** When the call was held; for a plan, when the run paused for its approval. */
  @IsString() asked_at!: string;
  /** A rejection's reason, as the decider gave it; for a timeout, the default decision applied. */
  @IsOptional() @IsString() reason?: string;
  /** `approve` with edited arguments. */
  @IsOptional() @IsBoolean() edited?: boolean;
}

/** One entry of a run's trace: an action with its observation, or a model step. */
export class TraceStep {
  @IsInt() step!: number;
  @IsIn(TRACE_STEP_KINDS) kind!: (typeof TRACE_STEP_KINDS)[number];
  @IsOptional() @IsString() thought?: string;
  /** `client_tool_call`: the id the caller answers; the observation arrives with the next turn. */
  @IsOptional() @IsString() call_id?: string;
  /** `{tool, args}` */
  @IsOptional() @IsObject() action?: { tool: string; args: Record<string, unknown> };
  @IsOptional() @IsString() observation?: string;
  @IsOptional() @IsString() error?: string;
  @IsOptional() @IsObject() hook?: HookTrace;
  /** `user_message`: the caller's message; `routing`: the message routed. */
  @IsOptional() @IsString() message?: string;
  /** `routing`: the decision taken for the message, and why. */
  @IsOptional() @IsObject() routing?: RoutingDecision;
  /** `approval`: the decision taken on the held call `call_id` (or on the plan, `plan:<revision>`). */
  @IsOptional() @ValidateNested() @Type(() => ApprovalDecisionView) decision?: ApprovalDecisionView;
  @IsInt() elapsed_ms!: number;
  @IsOptional() @ValidateNested() @Type(() => Usage) tokens?: Usage;
}

export type UsedTools = Record<string, { count: number; total_ms: number }>;

export const PLAN_STEP_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export class PlanStep {
  @IsInt() index!: number;
  @IsString() description!: string;
  @IsString() tool!: string;
  @IsObject() params!: Record<string, unknown>;
  @IsIn(PLAN_STEP_STATUSES) status!: PlanStepStatus;
  @IsOptional() @Allow() result?: unknown;
  @IsOptional() @IsString() error?: string;
  @IsOptional() @IsInt() elapsed_ms?: number;
}

export class Plan {
  @IsArray() @ValidateNested({ each: true }) @Type(() => PlanStep) steps!: PlanStep[];
  /** 0 for the first plan, +1 for each replan. */
  @IsInt() revision!: number;
}

/**
 * One bar of a run's waterfall, from its journal: a model step or a function call, placed on the
 * run's clock (`start_ms` from the run's start), with what it spent.
 */
export class TimelineSpan {
  @IsIn(['model', 'tool']) kind!: 'model' | 'tool';
  @IsInt() step!: number;
  /** A call's place among its step's calls. */
  @IsOptional() @IsInt() index?: number;
  /** The function called. */
  @IsOptional() @IsString() name?: string;
  @IsInt() start_ms!: number;
  @IsInt() elapsed_ms!: number;
  /** A call's outcome; `in_flight`: sent, and its outcome never came back (its executor stopped). */
  @IsOptional() @IsIn(['success', 'error', 'in_flight']) status?: 'success' | 'error' | 'in_flight';
  /** False when a call was refused or answered by the run before it reached a provider. */
  @IsOptional() @IsBoolean() executed?: boolean;
  /** A model step's tokens and cost. */
  @IsOptional() @ValidateNested() @Type(() => Usage) usage?: Usage;
}

/** Where a forked run came from: the run, and the step the fork went live at. */
export class ForkOrigin {
  @IsString() run_id!: string;
  @IsInt() step!: number;
}

/** `GET /api/v1/runs/:id`: a run with its trace. Optional fields here are present, possibly null. */
export class RunView {
  @IsString() id!: string;
  @IsOptional() @IsString() session_id!: string | null;
  @IsString() agent!: string;
  @IsString() mode!: string;
  @IsIn(RUN_STATUSES) status!: RunStatus;
  @IsString() input!: string;
  @IsOptional() @IsString() reply!: string | null;
  @IsOptional() @IsIn(FINISH_REASONS) finish_reason!: FinishReason | null;
  @IsOptional() @IsString() error!: string | null;
  @IsOptional() @ValidateNested() @Type(() => Plan) plan!: Plan | null;
  @IsArray() @ValidateNested({ each: true }) @Type(() => TraceStep) trace!: TraceStep[];
  /** Per tool: `{count, total_ms}`. */
  @IsObject() used_tools!: UsedTools;
  @ValidateNested() @Type(() => Usage) usage!: Usage;
  @IsOptional() @IsInt() total_ms!: number | null;
  @IsString() created_at!: string;
  @IsOptional() @IsString() finished_at!: string | null;
  /** The OpenTelemetry trace of the turn, when tracing was on. */
  @IsOptional() @IsString() trace_id!: string | null;
  /** The trace in the operator's tracing UI (`TRACE_URL_TEMPLATE`), when both are known. */
  @IsOptional() @IsString() trace_url!: string | null;
  /** How many times another executor took the run over (its executor had stopped). */
  @IsInt() takeovers!: number;
  /** With `awaiting_approval` at a function call: the calls held for a decision. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PendingApproval)
  approvals?: PendingApproval[];
  /** The run whose call of this agent as a function started it (`agent_<name>`); null for a top-level run. */
  @IsOptional() @IsString() parent_run_id!: string | null;
  /** The model steps and function calls on the run's clock, from its journal. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TimelineSpan)
  timeline?: TimelineSpan[];
  /** The decisions taken on its held calls and on its plan held whole, in the order they were taken. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ApprovalDecisionView)
  decisions?: ApprovalDecisionView[];
  /** The run this one was forked from, and the step it went live at. */
  @IsOptional() @ValidateNested() @Type(() => ForkOrigin) forked_from?: ForkOrigin | null;
}

export class SessionMessageView {
  @IsInt() seq!: number;
  @IsIn(['user', 'assistant']) role!: 'user' | 'assistant';
  @IsString() content!: string;
  @IsOptional() @IsString() run_id!: string | null;
  @IsString() created_at!: string;
}

/** `GET /api/v1/sessions/:id`. Optional fields here are present, possibly null. */
export class SessionView {
  @IsString() id!: string;
  @IsString() agent!: string;
  @IsOptional() @IsString() title!: string | null;
  @IsOptional() @IsString() summary!: string | null;
  @IsString() created_at!: string;
  @IsString() updated_at!: string;
  /** USD the session's runs have cost so far, at their models' prices; null when none had a price. */
  @IsOptional() @IsNumber() cost_so_far!: number | null;
  /** The session's runs going now: a message with `run_id` (or `routing: join`) joins one. */
  @IsArray() @IsString({ each: true }) active_runs!: string[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => SessionMessageView) messages!: SessionMessageView[];
}
