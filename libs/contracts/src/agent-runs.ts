import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { ErrorBody } from './errors';
import { type AgentRunReply, type FinishReason, ID_PATTERN, type Usage } from './agent';

/**
 * Body of `agent.runs.get`, `.cancel` and `.reject`. With a `principal`, only that principal's
 * runs are found (another's is `not_found`); without one (authentication off) every run is.
 */
export class RunRefRequest {
  @IsString() @Matches(ID_PATTERN) run_id!: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

/** Body of `agent.runs.approve`; with `stream`, the rest of the run is published as events. */
export class RunApproveRequest extends RunRefRequest {
  @IsOptional() @IsBoolean() stream?: boolean;
}

/** Body of `agent.sessions.get` and `.delete`; `principal` as for runs. */
export class SessionRefRequest {
  @IsString() @Matches(ID_PATTERN) session_id!: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
}

export type RunStatus =
  'running' | 'awaiting_approval' | 'awaiting_tool_results' | 'completed' | 'failed' | 'cancelled';

/** One entry of a run's trace (seed 001/002): an action with its observation, or a model step. */
export interface TraceStep {
  step: number;
  kind:
    | 'action'
    | 'final'
    | 'parse_error'
    | 'llm_error'
    | 'plan'
    | 'replan'
    | 'plan_step'
    | 'summary'
    | 'history_summary'
    | 'client_tool_call';
  thought?: string;
  /** `client_tool_call`: the id the caller answers; the observation arrives with the next turn. */
  call_id?: string;
  action?: { tool: string; args: Record<string, unknown> };
  observation?: string;
  error?: string;
  elapsed_ms: number;
  tokens?: Usage;
}

export type UsedTools = Record<string, { count: number; total_ms: number }>;

export type PlanStepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped';

export interface PlanStep {
  index: number;
  description: string;
  tool: string;
  params: Record<string, unknown>;
  status: PlanStepStatus;
  result?: unknown;
  error?: string;
  elapsed_ms?: number;
}

export interface Plan {
  steps: PlanStep[];
  /** 0 for the first plan, +1 for each replan. */
  revision: number;
}

/** `GET /api/v1/runs/:id`: a run with its trace. */
export interface RunView {
  id: string;
  session_id: string | null;
  agent: string;
  mode: string;
  status: RunStatus;
  input: string;
  reply: string | null;
  finish_reason: FinishReason | null;
  error: string | null;
  plan: Plan | null;
  trace: TraceStep[];
  used_tools: UsedTools;
  usage: Usage;
  total_ms: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface SessionMessageView {
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  run_id: string | null;
  created_at: string;
}

/** `GET /api/v1/sessions/:id`. */
export interface SessionView {
  id: string;
  agent: string;
  title: string | null;
  summary: string | null;
  created_at: string;
  updated_at: string;
  messages: SessionMessageView[];
}

/**
 * What each event on `agent.events.<runId>` (and each SSE event of the chat API) carries as `data`.
 * `step` numbers the run's model steps; deltas of a step that ends in calls are that step's thought.
 */
export interface AgentEventData {
  run_start: { run_id: string; session_id: string; agent: string; mode: string; protocol: string };
  thought: { step: number; text: string };
  tool_call: { step: number; index: number; name: string; args: Record<string, unknown> };
  tool_result: {
    step: number;
    index: number;
    name: string;
    status: 'success' | 'error';
    result?: unknown;
    error?: ErrorBody;
    elapsed_ms: number;
  };
  plan: Plan;
  step: PlanStep;
  delta: { step: number; text: string };
  run_end: AgentRunReply;
}
