import type {
  AgentEventData,
  AgentEventType,
  FunctionCallSummary,
  ModelPrice,
  Plan,
  RunStatus,
  Scope,
  TraceStep,
  Usage,
  UsedTools,
} from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import { costOf } from './cost';
import { addTokens } from './usage';
import { IllegalTransition } from './errors';
import type { Clock, EventSink, RunEvent } from './events';
import { InMemoryRunInbox } from './inbox/run-inbox';

export type AbortReason = 'timeout' | 'cancelled';

/**
 * Where a run stands, in the words its stored record and the API use (`RunStatus`), and `queued`
 * before it starts: `awaiting_approval`, a plan or a call is held for a person's decision;
 * `awaiting_tool_results`, the model called tools the caller runs itself, and the run waits for
 * their results.
 */
export type RunPhase = 'queued' | RunStatus;

const TRANSITIONS: Record<RunPhase, readonly RunPhase[]> = {
  queued: ['running', 'failed', 'cancelled'],
  running: ['awaiting_approval', 'awaiting_tool_results', 'completed', 'failed', 'cancelled'],
  awaiting_approval: ['running', 'cancelled'],
  awaiting_tool_results: ['running', 'completed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export interface RunIdentity {
  runId: string;
  sessionId: string;
  principal?: string;
  /** The API key the run is done for, sent with every function call (what it schedules counts against it). */
  keyId?: string;
  /** The caller's scopes, sent with every function call: what the run does for it stays within them. */
  scopes?: Scope[];
  /** The agents above this run, outermost first, when another agent called it as a function. */
  chain?: string[];
}

/** What a run held for approval had gathered before the hold. */
export interface PriorProgress {
  usage: Usage;
  trace: readonly TraceStep[];
  usedTools: UsedTools;
  totalMs: number;
  plan?: Plan;
}

export interface RunStateOptions {
  timeoutMs: number;
  /** Receives the run's events; without one nothing is streamed (and the model is not asked to stream). */
  events?: EventSink;
  clock?: Clock;
  /** A run held for approval, taken up again: it starts in `awaiting_approval` with what it had. */
  prior?: PriorProgress;
  /** The price of the run's model, given by the host: the run's cost and its `max_cost_usd` need it. */
  price?: ModelPrice;
}

const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/**
 * One run's state machine and everything it accumulates in flight: usage, trace, tool
 * statistics, the function calls for the reply, and the one AbortSignal its deadline and a
 * cancel fire. The phase changes only through `transition`; the step and call counters, the plan
 * and the trace only through their methods.
 */
export class RunState<D extends AgentDefinition = AgentDefinition> {
  readonly startedAt = performance.now();
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  readonly usedTools: UsedTools = {};
  readonly functionCalls: FunctionCallSummary[] = [];
  /** Messages the caller adds while the run runs, read before each model step. */
  readonly inbox = new InMemoryRunInbox();
  private readonly steps: TraceStep[] = [];
  private calls = 0;
  private taken = 0;
  private held?: Plan;
  private current: RunPhase = 'queued';
  private seq = 0;
  private priorMs = 0;
  private readonly controller = new AbortController();
  private readonly deadline: number;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly events?: EventSink;
  private readonly clock: Clock;
  private muted?: () => boolean;
  readonly price?: ModelPrice;

  constructor(
    readonly identity: RunIdentity,
    readonly definition: D,
    options: RunStateOptions,
  ) {
    this.events = options.events;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.price = options.price;
    this.deadline = this.clock.now() + options.timeoutMs;
    this.timer = setTimeout(() => this.abort('timeout'), options.timeoutMs);
    if (options.prior) this.restore(options.prior);
  }

  get runId(): string {
    return this.identity.runId;
  }

  get phase(): RunPhase {
    return this.current;
  }

  /** Moves the run to `to`; throws `IllegalTransition` for a move the state machine does not allow. */
  transition(to: RunPhase): void {
    if (!TRANSITIONS[this.current].includes(to)) throw new IllegalTransition(this.current, to);
    this.current = to;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get abortReason(): AbortReason | undefined {
    return this.controller.signal.aborted ? (this.controller.signal.reason as AbortReason) : undefined;
  }

  abort(reason: AbortReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Stops the deadline timer; call once the run has ended. */
  close(): void {
    clearTimeout(this.timer);
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.clock.now());
  }

  /** Time spent on the run, before a hold for approval included. */
  totalMs(): number {
    return this.priorMs + Math.round(performance.now() - this.startedAt);
  }

  /** Whether someone receives the run's events (and so its answer's deltas). */
  get streaming(): boolean {
    return this.events !== undefined;
  }

  /** Withholds the run's events while `muted()` holds (steps replayed from its journal were told already). */
  muteWhile(muted: () => boolean): void {
    this.muted = muted;
  }

  emit<T extends AgentEventType>(type: T, data: AgentEventData[T]): void {
    if (this.muted?.()) return;
    this.events?.emit({ type, run_id: this.runId, seq: ++this.seq, data } as RunEvent);
  }

  addUsage(usage: Usage): void {
    addTokens(this.usage, usage);
  }

  /** What the run has cost so far in USD; undefined when its model has no price. */
  get cost(): number | undefined {
    return this.price ? costOf(this.usage, this.price) : undefined;
  }

  overBudget(): boolean {
    const budget = this.definition.total_token_budget;
    return (
      (budget > 0 && this.usage.prompt_tokens + this.usage.completion_tokens >= budget) ||
      this.overCostBudget()
    );
  }

  /** Tokens the run may still spend; undefined without a token budget. */
  tokensLeft(): number | undefined {
    const budget = this.definition.total_token_budget;
    if (!(budget > 0)) return undefined;
    return Math.max(0, budget - this.usage.prompt_tokens - this.usage.completion_tokens);
  }

  /** USD the run may still spend; undefined without a cost budget or a price to count it by. */
  costLeftUsd(): number | undefined {
    const budget = this.definition.max_cost_usd;
    const cost = this.cost;
    return budget === undefined || cost === undefined ? undefined : Math.max(0, budget - cost);
  }

  /** Whether the run has spent its `max_cost_usd` (never, for a model without a price). */
  overCostBudget(): boolean {
    const budget = this.definition.max_cost_usd;
    const cost = this.cost;
    return budget !== undefined && cost !== undefined && cost >= budget;
  }

  /** Model steps taken (LLM calls) and plan steps run. */
  get step(): number {
    return this.taken;
  }

  /** Starts the next step (a model call or a plan step); returns its number. */
  nextStep(): number {
    return ++this.taken;
  }

  /** Function calls sent (or about to be), counted against `max_tool_calls`. */
  get toolCallsExecuted(): number {
    return this.calls;
  }

  countToolCall(): void {
    this.calls += 1;
  }

  /** The plan the run carries out; its steps' status changes as they run. */
  get plan(): Plan | undefined {
    return this.held;
  }

  setPlan(plan: Plan | undefined): void {
    this.held = plan;
  }

  get trace(): readonly TraceStep[] {
    return this.steps;
  }

  addTrace(...steps: TraceStep[]): void {
    this.steps.push(...steps);
  }

  /** Places `entry` before the trace's entries of its step and later ones (at the end when there are none). */
  insertTrace(entry: TraceStep): void {
    const at = this.steps.findIndex((existing) => existing.step >= entry.step);
    this.steps.splice(at === -1 ? this.steps.length : at, 0, entry);
  }

  recordToolUse(name: string, elapsedMs: number): void {
    const stats = (this.usedTools[name] ??= { count: 0, total_ms: 0 });
    stats.count += 1;
    stats.total_ms += elapsedMs;
  }

  private restore(prior: PriorProgress): void {
    this.current = 'awaiting_approval';
    this.priorMs = prior.totalMs;
    this.held = prior.plan;
    this.addUsage(prior.usage);
    this.steps.push(...prior.trace);
    Object.assign(this.usedTools, prior.usedTools);
    this.calls = Object.values(prior.usedTools).reduce((sum, stats) => sum + stats.count, 0);
    this.taken = prior.trace.reduce((max, entry) => Math.max(max, entry.step), 0);
  }
}
