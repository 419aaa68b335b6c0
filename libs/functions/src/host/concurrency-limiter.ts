import { UnavailableError } from '@app/contracts';

type Waiter = { grant: () => void; signal: AbortSignal; onAbort: () => void };

/**
 * At most `limit` calls run at once on this replica; the others wait their turn until their own
 * deadline (the signal). A full waiting line is refused at once rather than growing without bound.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting = limit * 8,
  ) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with the release function once a slot is free; rejects with the signal's reason. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new UnavailableError(`busy: ${this.active} calls running and ${this.waiting.length} waiting`),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        grant: () => resolve(this.releaser()),
        onAbort: () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (!next) {
        this.active -= 1;
        return;
      }
      next.signal.removeEventListener('abort', next.onAbort);
      next.grant();
    };
  }
}
