import { type NatsConnection, PermissionViolationError } from '@nats-io/transport-node';
import { UnavailableError } from '@app/contracts';

/** What happened to the connection to NATS. */
export type ConnectionChange = 'disconnected' | 'reconnected';

export type ConnectionListener = (change: ConnectionChange) => void;

/** The broker refused a publish of this connection (a permission it lacks). */
export type RefusalListener = (refused: PermissionViolationError) => void;

/**
 * The connection to NATS dropped while a request was in flight. A reply sent during the outage is
 * lost (the server forgets the reply inbox's interest), so waiting for it would only end at the
 * request's timeout: the request fails at once and the caller decides (retry, or look it up).
 */
export class ConnectionLostError extends UnavailableError {
  constructor(readonly subject: string) {
    super(`the connection to NATS was lost while '${subject}' was in flight`, { part: 'nats', subject });
  }
}

/** Follows the client's status events: whether the connection is up, and who wants to know. */
export class ConnectionWatch {
  private down = false;
  private reconnectedAt = 0;
  private readonly listeners = new Set<ConnectionListener>();
  private readonly refusalListeners = new Set<RefusalListener>();

  constructor(private readonly connection: NatsConnection) {
    void this.follow();
  }

  /** False while the connection is down (reconnecting) or closed. */
  get connected(): boolean {
    return !this.down && !this.connection.isClosed();
  }

  /** Calls `listener` on each disconnect and reconnect; returns the way to stop. */
  on(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` each time the broker refuses a publish; returns the way to stop. */
  onRefusedPublish(listener: RefusalListener): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }

  /** Whether the connection came back within the last `ms` (its peers may still be re-subscribing). */
  reconnectedWithin(ms: number): boolean {
    return Date.now() - this.reconnectedAt < ms;
  }

  /** True once connected (at once if it is); false if `timeoutMs` passes first or the connection closes. */
  untilConnected(timeoutMs: number): Promise<boolean> {
    if (this.connected) return Promise.resolve(true);
    if (this.connection.isClosed()) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => (stop(), resolve(false)), Math.max(0, timeoutMs));
      const stop = this.on((change) => {
        if (change !== 'reconnected') return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
    });
  }

  private async follow(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect' && !this.down) {
        this.down = true;
        this.emit('disconnected');
      }
      if (status.type === 'reconnect') {
        this.down = false;
        this.reconnectedAt = Date.now();
        this.emit('reconnected');
      }
      if (refusedPublish(status)) for (const listener of [...this.refusalListeners]) listener(status.error);
    }
  }

  private emit(change: ConnectionChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

function refusedPublish(status: {
  type: string;
  error?: unknown;
}): status is { type: 'error'; error: PermissionViolationError } {
  return (
    status.type === 'error' &&
    status.error instanceof PermissionViolationError &&
    status.error.operation === 'publish'
  );
}
