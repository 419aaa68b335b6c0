/** Messages a caller added to a run while it runs; the run takes them before each model step. */
export interface RunInbox {
  /** Every message waiting, oldest first; each is handed out once. */
  take(): string[];
  /** Whether a message waits: a run about to answer takes another step to read it instead. */
  waiting(): boolean;
  /** The run reads no more (its last step began, or it ends): returns what still waits. */
  close(): string[];
}

/** An inbox in memory: what a host fills from wherever its callers' messages arrive. */
export class InMemoryRunInbox implements RunInbox {
  private pending: string[] = [];
  private closed = false;

  /** False once the run reads no more messages: the host refuses the message rather than drop it. */
  post(message: string): boolean {
    if (this.closed) return false;
    this.pending.push(message);
    return true;
  }

  take(): string[] {
    return this.pending.splice(0);
  }

  waiting(): boolean {
    return this.pending.length > 0;
  }

  close(): string[] {
    this.closed = true;
    return this.take();
  }
}
