import type {
  AgentRunReply,
  ClientTool,
  ModelPrice,
  Plan,
  Scope,
  TraceStep,
  UsedTools,
} from '@app/contracts';
import type { AgentError } from './errors';
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
  /** The caller's scopes, sent with every function call. */
  scopes?: Scope[];
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
export interface ExecuteOptions {
  /** Sets the run up before its strategy starts (e.g. hands it a plan to carry out). */
  prepare?: (run: RunState) => void;
  /** Receives this run's events, besides the runtime's sink. */
  stream?: EventSink;
  /** A run held for approval, taken up again. */
  prior?: PriorProgress;
}
