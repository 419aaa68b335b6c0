import { errors } from '@nats-io/transport-node';
import { type AppError, TimeoutError, UnavailableError } from '@app/contracts';

/** Nobody subscribes to the subject: the service (or function) behind it is not running. */
export class NoRespondersError extends UnavailableError {
  constructor(readonly subject: string) {
    super(`no service answers '${subject}'`, { subject });
  }
}

/** The connection to NATS is closed or draining: nothing can be asked of anyone. */
export class NatsUnavailableError extends UnavailableError {
  constructor(reason: string) {
    super(`NATS is unreachable (${reason})`, { part: 'nats' });
  }
}

/** NATS's own error classes decide the mapping; their message texts are not a contract. */
export function mapRequestError(subject: string, err: unknown, timeoutMs: number): AppError {
  if (
    err instanceof errors.NoRespondersError ||
    (err instanceof errors.RequestError &&
      (err.isNoResponders() || err.cause instanceof errors.NoRespondersError))
  )
    return new NoRespondersError(subject);
  if (
    err instanceof errors.TimeoutError ||
    (err instanceof errors.RequestError && err.cause instanceof errors.TimeoutError)
  )
    return new TimeoutError(`'${subject}' did not answer within ${timeoutMs} ms`);
  if (err instanceof errors.ClosedConnectionError)
    return new NatsUnavailableError('the connection is closed');
  if (err instanceof errors.DrainingConnectionError)
    return new NatsUnavailableError('the connection is draining');
  return new UnavailableError(
    `request on '${subject}' failed: ${(err as Error)?.message ?? 'unknown error'}`,
  );
}
