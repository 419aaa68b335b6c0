import {
  type AgentResult,
  InMemoryMemoryStore,
  type MemoryScope,
  type MemoryStore,
  RunArchiver,
} from '@app/agent-core/portable';
import type { FunctionLogger } from '@app/functions/portable';

/** An agent's long-term memory: where it is kept (in this process when absent) and whose it is. */
export interface AgentMemoryOptions {
  store?: MemoryStore;
  /** Whose memories the model may search (a principal's, narrowed to a session or an agent). */
  scope: MemoryScope;
}

/**
 * One agent's memory: the store its runs search within the scope (the runtime's memory port), and
 * each completed run archived there behind its result (the engine's `RunArchiver`, as the
 * platform's executor archives).
 */
export class RunArchive {
  readonly store: MemoryStore;
  readonly scope: MemoryScope;
  private readonly archiver: RunArchiver;

  constructor(
    options: AgentMemoryOptions,
    private readonly agent: string,
    logger?: FunctionLogger,
  ) {
    this.store = options.store ?? new InMemoryMemoryStore();
    this.scope = options.scope;
    this.archiver = new RunArchiver(this.store, {
      failed: (run, _count, err) =>
        logger?.error('could not archive the run to memory; the run is not affected', {
          run_id: run.runId,
          error: (err as Error).message,
        }),
    });
  }

  /** Returns at once; the write happens after, and its failure is logged, never the run's. */
  archive(result: AgentResult): void {
    if (result.phase !== 'completed') return;
    this.archiver.archive({
      runId: result.run_id,
      principal: this.scope.principal,
      sessionId: result.session_id,
      agent: this.agent,
      input: result.input,
      trace: result.trace,
      reply: result.reply,
      at: new Date(),
    });
  }

  /** Resolves when every archive started so far is written (or given up). */
  settled(): Promise<void> {
    return this.archiver.settled();
  }
}
