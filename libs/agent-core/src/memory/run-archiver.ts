import type { MemoryStore } from './memory-store';
import { type FinishedRun, segmentRun } from './run-segments';

/** What a host hears of each archive; every part optional. */
export interface RunArchiverOptions {
  /** The run's segments are stored (`count` of them). */
  archived?(run: FinishedRun, count: number): Promise<void> | void;
  /** They could not be: the run is not affected (its caller has its answer already). */
  failed?(run: FinishedRun, count: number, err: unknown): void;
}

/**
 * Archives finished runs into long-term memory behind their reply: `archive` returns at once, and
 * the segmenting and the write happen after, on the next turn of the event loop. A failed write
 * never reaches the run: memory is a help, not the record (the run's trace is). The platform's
 * executor and the embedded SDK archive through this one piece, each with its own store.
 */
export class RunArchiver {
  /** Writes in flight, so a shutdown or a test can wait for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Pick<MemoryStore, 'append'>,
    private readonly options: RunArchiverOptions = {},
  ) {}

  archive(run: FinishedRun): void {
    // Even the segmenting waits until the reply has gone out.
    const write = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.write(run))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves when every archive started so far is written (or given up). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async write(run: FinishedRun): Promise<void> {
    let count = 0;
    try {
      const segments = segmentRun(run);
      count = segments.length;
      await this.store.append(segments);
    } catch (err) {
      this.options.failed?.(run, count, err);
      return;
    }
    await this.options.archived?.(run, count);
  }
}
