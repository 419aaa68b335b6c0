import type { AgentRunReply } from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import type { AgentResult, AgentRunStream, ExecuteOptions, RunInput } from './agent-types';
import { AgentError } from './errors';
import { EventStream, fanOut } from './event-stream';
import { newId } from './ids';
import { resumeFromJournal } from './journal/journal-replay';
import { functionsWithMemory } from './memory/run-memory';
import type { ChatMessage } from './model/model-client';
import { PromptSet } from './prompts/prompt-set';
import type { RunContext } from './run-context';
import { failureOf } from './run-failure';
import { type RunOutcome, statusOf } from './run-outcome';
import { frameRun } from './run-frame';
import { type PriorProgress, RunState } from './run-state';
import { replyOf, runStrategy } from './run-turn';
import { rejectPlan } from './strategies/plan-rejection';
import type { AgentRuntime } from './runtime';
import { ClientToolSet } from './tools/client-tool-set';
import { settleInbox } from './inbox/settle-inbox';

/**
 * An agent definition bound to a runtime: `run` for the result, `send` for the events too. Every
 * host runs its turns through `execute`: the embedded SDK as it is, the platform's executor with
 * its record, lease and journal as the host's additions (`ExecuteOptions.host`).
 */
export class Agent<D extends AgentDefinition = AgentDefinition> {
  constructor(
    readonly runtime: AgentRuntime,
    readonly definition: D,
  ) {}

  /** The same agent with some of its definition replaced. */
  withDefinition(changes: Partial<D>): Agent<D> {
    return new Agent(this.runtime, { ...this.definition, ...changes });
  }

  run(input: RunInput | string): Promise<AgentResult> {
    return this.execute(toInput(input));
  }

  send(input: RunInput | string): AgentRunStream {
    const given = toInput(input);
    const runId = given.runId ?? newId('run');
    const stream = new EventStream();
    const controller = new AbortController();
    const signal = given.signal ? AbortSignal.any([given.signal, controller.signal]) : controller.signal;
    const result = this.execute({ ...given, runId, signal }, { stream });
    void result.then(
      () => stream.close(),
      () => stream.close(),
    );
    return {
      runId,
      result,
      cancel: () => controller.abort(),
      [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    };
  }

  /**
   * Carries out the plan of a run held for approval (`phase: 'awaiting_approval'`), in the same run:
   * its id, trace, usage and time go on. `input` may add a signal or the caller's scopes.
   */
  approve(
    held: AgentResult,
    input: Omit<RunInput, 'message' | 'runId' | 'sessionId'> = {},
  ): Promise<AgentResult> {
    return this.execute({ ...input, ...heldInput(held) }, { prior: priorOf(held) });
  }

  /**
   * Rejects the plan of a run held for approval: none of its steps runs, and the run ends
   * `rejected` (`phase: 'cancelled'`); no model or hook is called. `reason` becomes its error.
   */
  async reject(held: AgentResult, reason?: string): Promise<AgentResult> {
    const input = heldInput(held);
    const run = this.newRun(input, { prior: priorOf(held) });
    run.close();
    const { plan, outcome } = rejectPlan(run.plan, reason);
    run.setPlan(plan);
    run.transition(statusOf(outcome.finishReason));
    const { journal } = this.runtime.ports;
    await journal?.planChanged(run);
    await journal?.runEnded(run, outcome);
    return this.result(run, input, outcome, replyOf(run, outcome));
  }

  /**
   * One turn, in the run frame: `run_start` (or `run_resumed`), the strategy, the ending recorded,
   * hooks told, the host's record of its end, `run_end`.
   */
  async execute(input: RunInput, options: ExecuteOptions<D> = {}): Promise<AgentResult> {
    const run = this.newRun(input, options);
    const ctx = this.contextFor(run, input);
    const { hooks, journal } = this.runtime.ports;
    const stop = () => run.abort('cancelled');
    if (input.signal?.aborted) stop();
    input.signal?.addEventListener('abort', stop, { once: true });
    options.prepare?.(run);
    try {
      const { ended, ...host } = options.host ?? {};
      const outcome = await frameRun(run, {
        ...host,
        hooks,
        journal,
        resumed: options.resume?.resumed,
        work: () => this.work(ctx, input, options),
      });
      const reply = ended ? await ended(run, outcome) : replyOf(run, outcome);
      return this.result(run, input, outcome, reply);
    } finally {
      input.signal?.removeEventListener('abort', stop);
    }
  }

  private newRun(input: RunInput, options: ExecuteOptions<D>): RunState<D> {
    const { ports } = this.runtime;
    const identity = {
      runId: input.runId ?? newId('run'),
      sessionId: input.sessionId ?? '',
      principal: input.principal,
      ...(input.keyId ? { keyId: input.keyId } : {}),
      scopes: input.scopes,
      ...(input.chain ? { chain: input.chain } : {}),
    };
    return new RunState(identity, this.definition, {
      timeoutMs: this.runtime.timeoutFor(this.definition),
      events: fanOut(ports.events, options.stream),
      clock: ports.clock,
      prior: options.prior,
      price: input.price,
    });
  }

  private contextFor(run: RunState<D>, input: RunInput): RunContext<D> {
    const { ports } = this.runtime;
    return {
      run,
      model: ports.model,
      functions: functionsWithMemory(ports.functions, ports.memory, this.definition, input),
      prompts: new PromptSet(this.definition),
      hooks: ports.hooks,
      journal: ports.journal,
      metrics: ports.metrics,
      spend: ports.spend,
      clientTools: input.clientTools?.length ? new ClientToolSet(input.clientTools) : undefined,
      inbox: run.inbox,
    };
  }

  /**
   * The turn's work (from its journal, for a run carried on): the hooks told it started, its
   * history loaded, its strategy. A plan the run
   * holds before its work (a caller's) is announced first, as a model's is once written; one taken
   * up after its approval was announced before.
   */
  private async work(base: RunContext<D>, input: RunInput, options: ExecuteOptions<D>): Promise<RunOutcome> {
    const { run } = base;
    const { resume } = options;
    // Muted from here: the run's resumption is told, its replayed steps were told before.
    const ctx = resume
      ? {
          ...resumeFromJournal(base, resume.replay),
          approvals: resume.approvals,
          ...(resume.clientResults ? { clientResults: resume.clientResults } : {}),
        }
      : base;
    if (run.plan && !options.prior) run.emit('plan', run.plan);
    try {
      await this.runtime.ports.hooks?.onTurnStart?.(run);
      const history = typeof input.history === 'function' ? await input.history(ctx) : (input.history ?? []);
      const conversation: ChatMessage[] = [...history, { role: 'user', content: input.message }];
      const outcome = await runStrategy(ctx, conversation, this.runtime.planParser);
      await settleInbox(ctx, outcome);
      return outcome;
    } finally {
      const marker = resume?.marker;
      if (marker) run.insertTrace(marker);
    }
  }

  private result(run: RunState<D>, input: RunInput, outcome: RunOutcome, reply: AgentRunReply): AgentResult {
    run.emit('run_end', reply);
    const failure = failureOf(outcome, this.definition.mode);
    return {
      ...reply,
      phase: run.phase,
      input: input.message,
      trace: [...run.trace],
      ...(run.plan ? { plan: run.plan } : {}),
      used_tools: run.usedTools,
      total_ms: run.totalMs(),
      transcript: outcome.transcript ?? outcome.reply,
      ...(failure ? { failure } : {}),
    };
  }
}

/** What a run held for approval had gathered: the run goes on (or ends) with it. */
function priorOf(held: AgentResult): PriorProgress {
  if (held.phase !== 'awaiting_approval' || !held.plan)
    throw new AgentError(
      'not_waiting_approval',
      `run '${held.run_id}' is not waiting for approval (${held.phase})`,
    );
  return {
    usage: held.usage,
    trace: held.trace,
    usedTools: held.used_tools,
    totalMs: held.total_ms,
    plan: held.plan,
  };
}

function heldInput(held: AgentResult): RunInput {
  return { message: held.input, runId: held.run_id, sessionId: held.session_id };
}

function toInput(input: RunInput | string): RunInput {
  return typeof input === 'string' ? { message: input } : input;
}
