/** Messages a caller added to a run while it runs; the run takes them before each model step. */
export interface RunInbox {
  /** Every message waiting, oldest first; each is handed out once. */
  take(): string[];
}

/** An inbox in memory: what a host fills from wherever its callers' messages arrive. */
export class InMemoryRunInbox implements RunInbox {
  private pending: string[] = [];

  post(message: string): void {
    this.pending.push(message);
  }

  take(): string[] {
    return this.pending.splice(0);
  }
}
