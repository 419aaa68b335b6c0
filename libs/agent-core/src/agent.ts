import type { AgentDefinition } from './agent-definition';
import type { AgentResult, AgentRunStream, ExecuteOptions, RunInput } from './agent-types';
import { AgentError } from './errors';
import { EventStream } from './event-stream';
import { newId } from './ids';
import type { PriorProgress } from './run-state';
import type { AgentRuntime } from './runtime';

type Turns = typeof import('./agent-turn.js');
let turns: Turns | undefined;

/**
 * What a turn runs on (agent-turn.ts: the run frame, the strategies, the tools, the journal's
 * replay, the memory functions) is loaded at the first turn of the process, not with this class:
 * a process holding an agent that has not run yet, as an idle embedded one, does not carry it
 * (docs/benchmarks.md). Once loaded it is taken without an await, so later turns start as before.
 */
async function loadedTurns(): Promise<Turns> {
  turns ??= await import('./agent-turn.js');
  return turns;
}

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
    const prior = priorOf(held);
    const { rejectTurn } = turns ?? (await loadedTurns());
    return rejectTurn(this, input, prior, reason);
  }

  /**
   * One turn, in the run frame: `run_start` (or `run_resumed`), the strategy, the ending recorded,
   * hooks told, the host's record of its end, `run_end`.
   */
  async execute(input: RunInput, options: ExecuteOptions<D> = {}): Promise<AgentResult> {
    const { executeTurn } = turns ?? (await loadedTurns());
    return executeTurn(this, input, options);
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
