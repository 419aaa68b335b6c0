import pg from 'pg';
import { type BackoffPolicy, retry } from '@app/retry';

/**
 * How long a query waits for a PostgreSQL that refuses connections (restarting, failing over)
 * before it fails: a restart takes a second or two, and a run or a request that fails at once
 * during it is lost to its caller (an agent run ended with the driver's ECONNREFUSED).
 */
export const RECONNECT_WAIT_MS = 15_000;
const RECONNECT_POLICY: BackoffPolicy = { firstMs: 100, maxMs: 1_000 };

/** Errors that say the server was never reached: nothing was sent, so asking again is safe. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', '57P03']);

export function notReached(err: unknown): boolean {
  const { code } = (err ?? {}) as { code?: string };
  return code !== undefined && NOT_REACHED.has(code);
}

type Callback = (err: Error | undefined, client?: pg.PoolClient, release?: (err?: Error) => void) => void;

/**
 * A pg pool whose `connect` waits, with backoff, through a server that refuses connections, up to
 * `waitMs`; queries in flight when a connection is cut still fail (they may have run).
 */
export class PatientPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly waitMs = RECONNECT_WAIT_MS,
  ) {
    super(config);
    // An idle connection the server closes (a restart) is dropped by the pool, which says so with
    // an 'error' event: unheard, that event would end the process.
    this.on('error', () => undefined);
  }

  // pg's pool calls connect with a callback for its own queries, callers use the promise
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Callback): void;
  override connect(callback?: Callback): Promise<pg.PoolClient> | void {
    const connected = this.patiently();
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, (err?: Error) => client.release(err)),
      (err: Error) => callback(err),
    );
  }

  private patiently(): Promise<pg.PoolClient> {
    return retry(() => super.connect(), {
      policy: RECONNECT_POLICY,
      retryable: (err) => notReached(err) && !this.ending,
      deadline: Date.now() + this.waitMs,
    });
  }
}
