import { AgentChassisError, type AgentChassisClient } from '@app/client';

/**
 * A turn in flight that Ctrl-C stops: the run is cancelled on the server (it would go on without
 * its caller), then its stream is no longer read. Ctrl-C before the run has an id waits for the
 * id (its `run_start`); a second one stops reading at once.
 */
export class InterruptibleTurn {
  private readonly controller = new AbortController();
  private runId?: string;
  private asked = false;

  constructor(
    private readonly client: AgentChassisClient,
    private readonly onError: (err: unknown) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  started(runId: string): void {
    this.runId = runId;
    if (this.asked) this.interrupt();
  }

  interrupt(): void {
    if (this.runId) {
      this.client.runs.cancel(this.runId).catch((err: unknown) => {
        // A run that ended meanwhile cannot be cancelled: nothing to tell.
        if (!(err instanceof AgentChassisError && err.code === 'conflict')) this.onError(err);
      });
      this.controller.abort();
    } else if (this.asked) this.controller.abort();
    else this.asked = true;
  }
}
