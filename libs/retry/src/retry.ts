import { Backoff, type BackoffPolicy, sleep } from './backoff';

export interface RetryOptions {
  policy: BackoffPolicy;
  /** Whether a failure may go away if asked again (e.g. the request never reached anyone). */
  retryable: (err: unknown) => boolean;
  /** Epoch ms: no attempt starts after it; a wait that would end past it throws the failure instead. */
  deadline: number;
}

/**
 * Attempts `attempt` until it succeeds, waiting between attempts as the policy says. A failure that
 * is not `retryable`, or whose next wait would end past the deadline, is thrown as it is.
 */
export async function retry<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const backoff = new Backoff(options.policy);
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      const wait = backoff.next();
      if (!options.retryable(err) || Date.now() + wait >= options.deadline) throw err;
      await sleep(wait);
    }
  }
}
