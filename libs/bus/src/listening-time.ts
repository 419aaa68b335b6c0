/** How often listening time is counted while a responder is being waited on. */
const TICK_MS = 100;

type Watch = { due: number; fire: () => void };

/**
 * How long this process has been able to hear its socket: a responder is given so much of it to
 * speak, not so much wall-clock time. A process that is held (starved of CPU on a loaded machine,
 * a long synchronous stretch, a GC pause) hears nothing meanwhile, and when it resumes its timers
 * run before its socket is read: judged on the wall clock, a responder whose answer is already
 * waiting there, or whose request had not even left this process, would be taken for gone, and a
 * call it took and answered in time would fail. So a tick that comes late counts for two ticks at
 * most (the rest was this process's own hold), and a watch that falls due is decided only after
 * the socket had its turn (`setImmediate` runs after the event loop's poll phase): an answer read
 * then cancels it.
 */
export class ListeningTime {
  private heard = 0;
  private lastTick = 0;
  private ticker?: NodeJS.Timeout;
  private readonly watches = new Set<Watch>();

  constructor(private readonly tickMs = TICK_MS) {}

  /** Calls `fire` once `ms` of listening time have passed; returns the cancel. */
  after(ms: number, fire: () => void): () => void {
    if (!this.ticker) this.start();
    const watch: Watch = { due: this.now() + ms, fire };
    this.watches.add(watch);
    return () => this.drop(watch);
  }

  private now(): number {
    return this.heard + this.counted(performance.now());
  }

  private counted(at: number): number {
    return Math.min(at - this.lastTick, this.tickMs * 2);
  }

  private start(): void {
    this.lastTick = performance.now();
    this.ticker = setInterval(() => this.tick(), this.tickMs);
    // the request's own timeout keeps the process alive; this only counts
    this.ticker.unref();
  }

  private tick(): void {
    const at = performance.now();
    this.heard += this.counted(at);
    this.lastTick = at;
    const due = [...this.watches].filter((watch) => watch.due <= this.heard);
    if (due.length === 0) return;
    setImmediate(() => {
      for (const watch of due) {
        if (!this.watches.has(watch)) continue;
        this.drop(watch);
        watch.fire();
      }
    });
  }

  private drop(watch: Watch): void {
    this.watches.delete(watch);
    if (this.watches.size > 0 || !this.ticker) return;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
