import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { UnavailableError } from '@app/contracts';

/** What a client is told to wait before trying again (on another instance, behind a balancer). */
export const DRAINING_RETRY_AFTER_S = 5;
const HEALTH_PATHS = /^\/(api\/v1\/)?health(\/|\?|$)/;

/**
 * The HTTP side of a graceful stop: counts the requests in flight (SSE streams included) so a
 * shutdown can keep listening while they finish, answering every new request 503 with
 * `Retry-After` and `Connection: close` (`/health` says "draining", so a load balancer takes the
 * instance out instead of seeing refused connections), tell the open ones not to reuse their
 * connection, and close the listener once they are done, before the bus is drained under them.
 */
export class HttpIntake {
  private readonly open = new Set<ServerResponse>();
  private draining = false;
  private idle?: () => void;

  /** Requests in flight, SSE streams included. */
  get inFlight(): number {
    return this.open.size;
  }

  /** Express middleware, mounted before every other one. */
  readonly handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (this.draining) {
      const error = new UnavailableError('the service is shutting down; retry on another instance').toBody();
      const body = HEALTH_PATHS.test(req.url ?? '') ? { status: 'draining', error } : { error };
      res.writeHead(503, {
        'content-type': 'application/json',
        'retry-after': String(DRAINING_RETRY_AFTER_S),
        connection: 'close',
      });
      res.end(JSON.stringify(body));
      return;
    }
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) this.idle?.();
    });
    next();
  };

  /**
   * Refuses new requests (still listening), waits up to `timeoutMs` for the open ones and at least
   * `delayMs` in all, then closes the listener and cuts what is left.
   */
  async drain(server: Server, timeoutMs: number, delayMs = 0): Promise<void> {
    const closeAt = Date.now() + delayMs;
    this.draining = true;
    server.closeIdleConnections();
    for (const res of this.open) if (!res.headersSent) res.setHeader('connection', 'close');
    if (this.open.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
    }
    const left = closeAt - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    server.close();
    server.closeAllConnections();
  }
}
