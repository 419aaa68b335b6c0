import type { CallerDto, ErrorBody, FunctionDefinition, FunctionResult, PlanStep } from '@app/contracts';
import type { CompletionRequest, CompletionResult } from './model/model-client';
export type { Clock, EventSink } from './events';
import type { RunOutcome } from './run-outcome';
import type { RunState } from './run-state';
import type { ToolCall, ToolOutcome } from './tools/tool-call';

export type { ModelClient } from './model/model-client';
export type { MemoryStore } from './memory/memory-store';

export interface FunctionCallRequest {
  name: string;
  args: Record<string, unknown>;
  callId: string;
  /** `<run_id>:<step>:<call index>`: a call sent again after a takeover is recognised by its provider. */
  idempotencyKey?: string;
  /** Aborted when the run stops (deadline or cancel): the call is given up and cancelled at its provider. */
  signal: AbortSignal;
  timeoutMs: number;
  caller: CallerDto;
  /** The concrete names the run may call, for the provider's own check; absent when all are allowed. */
  allowedTools?: string[];
}

/** A call's outcome; a failure is data (the model reads it), never a throw. */
export type FunctionCallOutcome =
  { status: 'success'; result: FunctionResult } | { status: 'error'; error: ErrorBody };

/** The functions a run can call: their definitions, and the call itself. */
export interface Functions {
  /** Every known definition, in name order (so prompts are stable). */
  catalogue(): Promise<readonly FunctionDefinition[]>;
  find(name: string): Promise<FunctionDefinition | undefined>;
  call(request: FunctionCallRequest): Promise<FunctionCallOutcome>;
}

/**
 * The run's journal: every completed step is handed over as it completes, so a run can later be
 * rebuilt from it. Each method may be a no-op for a store that keeps less.
 */
export interface RunJournal {
  modelStepCompleted(run: RunState, step: { step: number; result: CompletionResult }): Promise<void> | void;
  /** As each call settles: the calls of one step in the order they finished (`outcome.index`: call order). */
  toolCallCompleted(run: RunState, call: ToolCall, outcome: ToolOutcome): Promise<void> | void;
  /**
   * A call is about to be sent: resolves once that is journaled, so a run taken over knows the
   * call may have run. The engine waits for it only before a call that is not idempotent; an
   * idempotent call is sent at once, so the store must take the entry, in order, when it is
   * called (and report its own failed writes). Optional: a store without it journals completed
   * calls only.
   */
  toolCallStarted?(
    run: RunState,
    started: { step: number; index: number; name: string; args: Record<string, unknown> },
  ): Promise<void> | void;
  /** A message the caller added while the run ran reached the model at `step`. Optional. */
  userMessageReceived?(run: RunState, message: { step: number; text: string }): Promise<void> | void;
  /** The plan changed (written, a step ran, revised). */
  planChanged(run: RunState): Promise<void> | void;
  runEnded(run: RunState, outcome: RunOutcome): Promise<void> | void;
}

export type ToolDecision =
  | { action: 'allow' }
  | { action: 'deny'; reason: string }
  /** Run the call with these arguments instead (validated again). */
  | { action: 'rewrite'; args: Record<string, unknown> };

/** Optional observers and gates around a run; called in the order listed. */
export interface Hooks {
  onTurnStart?(run: RunState): Promise<void> | void;
  beforeLlm?(run: RunState, request: CompletionRequest): Promise<void> | void;
  afterLlm?(run: RunState, result: CompletionResult): Promise<void> | void;
  beforeTool?(run: RunState, call: ToolCall): Promise<ToolDecision | void> | ToolDecision | void;
  afterTool?(run: RunState, outcome: ToolOutcome): Promise<void> | void;
  onPlanStepComplete?(run: RunState, step: PlanStep): Promise<void> | void;
  onTurnEnd?(run: RunState, outcome: RunOutcome): Promise<void> | void;
}

/** Counters the host may keep; every method optional. */
export interface RunMetrics {
  parseFailure?(protocol: string): void;
  tokensSaved?(tokens: number): void;
  /** What one model call of `run` cost in USD; called only when the run's model has a price. */
  modelCost?(run: RunState, usd: number): void;
}

/**
 * A budget outside the run that its model calls draw on (the executor's: the run's API key's
 * daily USD budget, shared by every run of the key, on every executor). Each call reserves its
 * worst case before it is sent and settles at what it cost, so concurrent runs can never spend
 * past the budget between them.
 */
export interface SpendLedger {
  /** Whether `run` draws on such a budget at all; false: nothing is reserved (and nothing counted for it). */
  applies(run: RunState): boolean | Promise<boolean>;
  /** Holds `usd` of the budget for one call of `run`; undefined when what is left cannot take it. */
  reserve(run: RunState, usd: number): Promise<SpendHold | undefined>;
}

/** A reservation: settled once, with what the call cost (0 for a call that failed before it was billed). */
export interface SpendHold {
  settle(usd: number): void;
}

export interface StoredTurnMessage {
  role: 'user' | 'assistant';
  content: string;
  tokens: number;
}

/** A session's history: what a turn loads (the summary, then the messages after it), and what it adds. */
export interface SessionStore {
  load(sessionId: string): Promise<{ summary: string | null; messages: StoredTurnMessage[] }>;
  append(sessionId: string, messages: StoredTurnMessage[]): Promise<void>;
  /** The oldest loaded messages, `folded`, are now in `summary`. */
  saveSummary(sessionId: string, summary: string, folded: StoredTurnMessage[]): Promise<void>;
}
