import {
  type AgentResult,
  InMemoryMemoryStore,
  type MemoryScope,
  type MemoryStore,
  segmentRun,
} from '@app/agent-core';
import type { FunctionLogger } from '@app/functions';

/** An agent's long-term memory: where it is kept (in this process when absent) and whose it is. */
export interface AgentMemoryOptions {
  store?: MemoryStore;
  /** Whose memories the model may search (a principal's, narrowed to a session or an agent). */
  scope: MemoryScope;
}

/**
 * One agent's memory: the store its runs search within the scope (the runtime's memory port), and
 * each completed run archived there behind its result.
 */
export class RunArchive {
  readonly store: MemoryStore;
  readonly scope: MemoryScope;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    options: AgentMemoryOptions,
    private readonly agent: string,
    private readonly logger?: FunctionLogger,
  ) {
    this.store = options.store ?? new InMemoryMemoryStore();
    this.scope = options.scope;
  }

  /** Returns at once; the write happens after, and its failure is logged, never the run's. */
  archive(result: AgentResult): void {
    if (result.phase !== 'completed') return;
    const write = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.write(result))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves when every archive started so far is written (or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async write(result: AgentResult): Promise<void> {
    try {
      await this.store.append(
        segmentRun({
          runId: result.run_id,
          principal: this.scope.principal,
          sessionId: result.session_id,
          agent: this.agent,
          input: result.input,
          trace: result.trace,
          reply: result.reply,
          at: new Date(),
        }),
      );
    } catch (err) {
      this.logger?.error('could not archive the run to memory; the run is not affected', {
        run_id: result.run_id,
        error: (err as Error).message,
      });
    }
  }
}
