import type { AgentRunReply, ClientTool, Plan, Scope, TraceStep } from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import type { AgentError } from './errors';
import { EventStream, fanOut } from './event-stream';
import type { RunEvent } from './events';
import { newId } from './ids';
import type { ChatMessage } from './model/model-client';
import type { EventSink } from './ports';
import { PromptSet } from './prompts/prompt-set';
import type { RunContext } from './run-context';
import { failureOf } from './run-failure';
import { ended, type RunOutcome } from './run-outcome';
import { RunState, type RunPhase } from './run-state';
import { phaseAfter, replyOf, runStrategy } from './run-turn';
import type { AgentRuntime } from './runtime';
import { ClientToolSet } from './tools/client-tool-set';

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
}

/** A run's reply (what the chat API answers), with where it stands, its trace and its plan. */
export interface AgentResult extends AgentRunReply {
  phase: RunPhase;
  trace: TraceStep[];
  plan?: Plan;
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

export type HistoryLoader = (ctx: RunContext) => Promise<ChatMessage[]>;

/** Lets a caller set up a run before its strategy starts (e.g. hand it a plan to carry out). */
export type PrepareRun = (run: RunState) => void;

/** An agent definition bound to a runtime: `run` for the result, `send` for the events too. */
export class Agent {
  constructor(
    readonly runtime: AgentRuntime,
    readonly definition: AgentDefinition,
  ) {}

  /** The same agent with some of its definition replaced. */
  withDefinition(changes: Partial<AgentDefinition>): Agent {
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
    const result = this.execute({ ...given, runId, signal }, undefined, stream);
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

  /** One turn, framed: `run_start`, the strategy, the ending recorded, hooks told, `run_end`. */
  async execute(input: RunInput, prepare?: PrepareRun, stream?: EventSink): Promise<AgentResult> {
    const { runtime } = this;
    const { ports } = runtime;
    const run = new RunState(
      {
        runId: input.runId ?? newId('run'),
        sessionId: input.sessionId ?? '',
        principal: input.principal,
        scopes: input.scopes,
      },
      this.definition,
      {
        timeoutMs: runtime.timeoutFor(this.definition),
        events: fanOut(ports.events, stream),
        clock: ports.clock,
      },
    );
    const stop = () => run.abort('cancelled');
    if (input.signal?.aborted) stop();
    input.signal?.addEventListener('abort', stop, { once: true });
    const ctx: RunContext = {
      run,
      model: ports.model,
      functions: ports.functions,
      prompts: new PromptSet(this.definition),
      hooks: ports.hooks,
      store: ports.store,
      metrics: ports.metrics,
      clientTools: input.clientTools?.length ? new ClientToolSet(input.clientTools) : undefined,
    };
    prepare?.(run);
    run.transition('running');
    run.emit('run_start', {
      run_id: run.runId,
      session_id: run.identity.sessionId,
      agent: this.definition.name,
      mode: this.definition.mode,
      protocol: this.definition.protocol,
    });
    let outcome: RunOutcome;
    try {
      await ports.hooks?.onTurnStart?.(run);
      const history = typeof input.history === 'function' ? await input.history(ctx) : (input.history ?? []);
      const conversation: ChatMessage[] = [...history, { role: 'user', content: input.message }];
      outcome = await runStrategy(ctx, conversation, runtime.planParser);
    } catch (err) {
      outcome = ended(run, run.abortReason ?? 'error', (err as Error).message || 'internal error');
    } finally {
      run.close();
      input.signal?.removeEventListener('abort', stop);
    }
    run.transition(phaseAfter(outcome.finishReason));
    await ports.store?.runEnded(run, outcome);
    await ports.hooks?.onTurnEnd?.(run, outcome);
    const reply = replyOf(run, outcome);
    run.emit('run_end', reply);
    return {
      ...reply,
      phase: run.phase,
      trace: run.trace,
      ...(run.plan ? { plan: run.plan } : {}),
      transcript: outcome.transcript ?? outcome.reply,
      ...withFailure(failureOf(outcome, this.definition.mode)),
    };
  }
}

function withFailure(failure: AgentError | undefined): { failure?: AgentError } {
  return failure ? { failure } : {};
}

function toInput(input: RunInput | string): RunInput {
  return typeof input === 'string' ? { message: input } : input;
}
