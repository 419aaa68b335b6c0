// How long the supervisor waits before restarting a process that exited unexpectedly.
//
// The platform's loops share one backoff (libs/retry, `@app/retry`). This one stays apart on
// purpose: `npm start` loads it as plain JavaScript before it has built anything (it must still
// supervise, and report, when the build or a service fails), so it cannot import a TypeScript
// library; and what it adds — forgetting the backoff after a stable minute, telling a crash loop —
// is the supervisor's own. Its waits follow the same policy shape (first, doubling, most).

export const BACKOFF = {
  firstMs: 500,
  maxMs: 10_000,
  stableMs: 60_000,
  quickExitMs: 5_000,
  crashLoopAfter: 3,
};

/** Exponential backoff: 0.5 s doubling to 10 s, back to 0.5 s after a minute up. */
export class Backoff {
  #next;
  #quickExits = 0;

  constructor(policy = BACKOFF) {
    this.policy = policy;
    this.#next = policy.firstMs;
  }

  /** Records an exit after `uptimeMs`; returns the delay before the restart. */
  onExit(uptimeMs) {
    if (uptimeMs >= this.policy.stableMs) this.#next = this.policy.firstMs;
    this.#quickExits = uptimeMs < this.policy.quickExitMs ? this.#quickExits + 1 : 0;
    const delay = this.#next;
    this.#next = Math.min(this.#next * 2, this.policy.maxMs);
    return delay;
  }

  /** True once, when the process has exited soon after starting `crashLoopAfter` times in a row. */
  get justStartedLooping() {
    return this.#quickExits === this.policy.crashLoopAfter;
  }

  /** How many times in a row it exited soon after starting. */
  get quickExits() {
    return this.#quickExits;
  }
}
