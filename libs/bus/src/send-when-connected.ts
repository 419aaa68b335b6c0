import { TimeoutError } from '@app/contracts';
import { retry } from '@app/retry';
import { NoRespondersError } from './bus-errors';
import type { ConnectionWatch } from './connection-watch';

/** After a reconnect, how long a read waits for its responders to subscribe again; its pauses double from 50 ms. */
const RESUBSCRIBE_WINDOW_MS = 3_000;
const RESUBSCRIBE_PAUSES = { firstMs: 50, maxMs: RESUBSCRIBE_WINDOW_MS };

/**
 * A read safe to repeat: asked while the connection is down, it is sent once it is back (not
 * buffered into the outage); right after a reconnect, no responders means they have not subscribed
 * again yet, so it is asked again after a short pause — all within the request's deadline.
 */
export async function sendWhenConnected<T>(
  watch: ConnectionWatch,
  subject: string,
  deadline: number,
  send: (timeoutMs: number) => Promise<T>,
  lost?: unknown,
): Promise<T> {
  if (!(await watch.untilConnected(deadline - Date.now())))
    throw lost ?? new TimeoutError(`'${subject}' could not be sent: NATS stayed unreachable`);
  return retry(() => send(Math.max(1, deadline - Date.now())), {
    policy: RESUBSCRIBE_PAUSES,
    retryable: (err) => err instanceof NoRespondersError && watch.reconnectedWithin(RESUBSCRIBE_WINDOW_MS),
    deadline,
  });
}
