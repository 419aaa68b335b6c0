import type {
  AgentRunReply,
  ClientTool,
  ModelPrice,
  RunResumedEvent,
  Plan,
  Scope,
  TraceStep,
  UsedTools,
} from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import type { AgentError } from './errors';
import type { JournalReplay } from './journal/journal-replay';
import type { RunHost } from './run-frame';
import type { RunOutcome } from './run-outcome';
import type { ApprovalDecisions } from './tools/approval-gate';
import type { ClientResults } from './tools/client-results';
import type { MemoryScope } from './memory/memory-store';
import type { RunEvent } from './events';
import type { ChatMessage } from './model/model-client';
import type { EventSink } from './ports';
import type { RunContext } from './run-context';
import type { PriorProgress, RunPhase, RunState } from './run-state';

export interface RunInput {
  message: string;
  /** The conversation before this message, oldest first; or loaded once the run has begun (its model calls count). */
  history?: ChatMessage[] | HistoryLoader;
  runId?: string;
  sessionId?: string;
  principal?: string;
  /** The API key the run is done for, sent with every function call (what it schedules counts against it). */
  keyId?: string;
  /** The caller's scopes, sent with every function call. */
  scopes?: Scope[];
  /** The agents above the run, outermost first, when another agent called it as a function. */
  chain?: string[];
  /** Tools the caller runs itself: a call to one ends the turn with `client_tool_calls`. */
  clientTools?: ClientTool[];
  /** Aborting it cancels the run. */
  signal?: AbortSignal;
  /** Whose memories the run may search, with the runtime's memory; the caller's of this agent when absent. */
  memoryScope?: MemoryScope;
  /** The price of the agent's model (USD per million tokens): the run's `usage.cost_usd` and `max_cost_usd` need it. */
  price?: ModelPrice;
}

export type HistoryLoader = (ctx: RunContext) => Promise<ChatMessage[]>;

/** A run's reply (what the chat API answers), with where it stands, its trace and its plan. */
export interface AgentResult extends AgentRunReply {
  phase: RunPhase;
  /** The message the run answered. */
  input: string;
  trace: TraceStep[];
  plan?: Plan;
  used_tools: UsedTools;
  total_ms: number;
  /** What a session keeps as the assistant's message (a reply held for client tools, as written). */
  transcript: string;
  /** Why the run ended without an answer; absent for an answer or a run held for the caller. */
  failure?: AgentError;
}

/** `Agent.send`: the run's events as they happen (ending with `run_end`), and its result. */
export interface AgentRunStream extends AsyncIterable<RunEvent> {
  readonly runId: string;
  readonly result: Promise<AgentResult>;
  cancel(): void;
}

/** How a turn is run, besides its input. */
export interface ExecuteOptions<D extends AgentDefinition = AgentDefinition> {
  /** Sets the run up before its strategy starts (e.g. hands it a plan to carry out). */
  prepare?: (run: RunState<D>) => void;
  /** Receives this run's events, besides the runtime's sink. */
  stream?: EventSink;
  /** A run held for approval, taken up again. */
  prior?: PriorProgress;
  /** A run carried on from its journal. */
  resume?: ResumeOptions;
  /** What the host adds around the run: its record, its lease, its end recorded. */
  host?: ExecuteHost<D>;
}

/**
 * A run carried on from its journal: the strategy runs again from the top, each journaled model
 * step and call answered from `replay`, the rest live; `resumed` is announced instead of
 * `run_start` (without it the run starts: a fork, run on a journal copied from another run).
 */
export interface ResumeOptions {
  replay: JournalReplay;
  resumed?: RunResumedEvent;
  /** Decisions on calls the run held for approval: a held call decided here runs (or not) as decided. */
  approvals?: ApprovalDecisions;
  /** The caller's results for the client tool calls the run paused on: its reply that asked is answered with them. */
  clientResults?: ClientResults;
  /** Marks in the run's trace where it was carried on (a takeover), placed at its step once the work is done. */
  marker?: TraceStep;
}

export interface ExecuteHost<D extends AgentDefinition = AgentDefinition> extends RunHost<D> {
  /**
   * Records the run's end (or its pause) before `run_end` is told; what it returns is the run's
   * reply. Without it the reply is `replyOf(run, outcome)`.
   */
  ended?: (run: RunState<D>, outcome: RunOutcome) => Promise<AgentRunReply>;
}
