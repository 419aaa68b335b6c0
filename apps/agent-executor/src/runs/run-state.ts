import type { FunctionCallSummary, Plan, Scope, TraceStep, Usage, UsedTools } from '@app/contracts';
import type { AgentProfile } from '../agents/agent-profile';
import type { ClientToolSet } from '../client-tools/client-tool-set';

export type AbortReason = 'timeout' | 'cancelled';

export interface RunIdentity {
  runId: string;
  sessionId: string;
  principal?: string;
  /** The caller's scopes, sent with every function call: what the run does for it stays within them. */
  scopes?: Scope[];
  /** Publish step events on `agent.events.<runId>`. */
  stream: boolean;
}

/** What a run paused for approval had gathered before the pause. */
export interface PriorProgress {
  usage: Usage;
  trace: TraceStep[];
  usedTools: UsedTools;
  totalMs: number;
}

/**
 * Everything one run accumulates while it is in flight: usage, trace, tool statistics, the
 * function calls for the reply, and the one AbortSignal that its deadline and a cancel fire.
 */
export class RunState {
  readonly startedAt = performance.now();
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  readonly trace: TraceStep[] = [];
  readonly usedTools: UsedTools = {};
  readonly functionCalls: FunctionCallSummary[] = [];
  toolCallsExecuted = 0;
  /** Model steps taken (LLM calls of the loop). */
  step = 0;
  plan?: Plan;
  /** Tools the caller runs itself; a call to one pauses the run. */
  clientTools?: ClientToolSet;
  /** The session's last message as of loading its history (0 for a new session): saves a read when appending. */
  sessionLastSeq?: number;
  private seq = 0;
  private priorMs = 0;
  private readonly controller = new AbortController();
  private readonly deadline: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly identity: RunIdentity,
    readonly profile: AgentProfile,
    runTimeoutMs: number,
    prior?: PriorProgress,
  ) {
    this.deadline = Date.now() + runTimeoutMs;
    this.timer = setTimeout(() => this.abort('timeout'), runTimeoutMs);
    if (prior) this.restore(prior);
  }

  get runId(): string {
    return this.identity.runId;
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
    return Math.max(0, this.deadline - Date.now());
  }

  /** Time spent on the run, before a pause for approval included. */
  totalMs(): number {
    return this.priorMs + Math.round(performance.now() - this.startedAt);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  addUsage(usage: Usage): void {
    this.usage.prompt_tokens += usage.prompt_tokens;
    this.usage.completion_tokens += usage.completion_tokens;
  }

  overBudget(): boolean {
    const budget = this.profile.total_token_budget;
    return budget > 0 && this.usage.prompt_tokens + this.usage.completion_tokens >= budget;
  }

  recordToolUse(name: string, elapsedMs: number): void {
    const stats = (this.usedTools[name] ??= { count: 0, total_ms: 0 });
    stats.count += 1;
    stats.total_ms += elapsedMs;
  }

  private restore(prior: PriorProgress): void {
    this.priorMs = prior.totalMs;
    this.addUsage(prior.usage);
    this.trace.push(...prior.trace);
    Object.assign(this.usedTools, prior.usedTools);
    this.toolCallsExecuted = Object.values(prior.usedTools).reduce((sum, stats) => sum + stats.count, 0);
    this.step = prior.trace.reduce((max, entry) => Math.max(max, entry.step), 0);
  }
}
