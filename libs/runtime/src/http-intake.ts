import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { UnavailableError } from '@app/contracts';

/**
 * The HTTP side of a graceful stop: counts the requests in flight (SSE streams included) so a
 * shutdown can close the listener, refuse what still arrives on open connections with 503 and
 * `Connection: close`, tell the open ones not to reuse their connection, and wait for them to
 * finish before the bus is drained under them.
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
  readonly handle = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (this.draining) {
      const body = JSON.stringify({ error: new UnavailableError('the service is shutting down').toBody() });
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
      res.end(body);
      return;
    }
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) this.idle?.();
    });
    next();
  };

  /** Stops intake, then waits up to `timeoutMs` for the open requests; cuts what is left. */
  async drain(server: Server, timeoutMs: number): Promise<void> {
    this.draining = true;
    server.close();
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
    server.closeAllConnections();
  }
}
