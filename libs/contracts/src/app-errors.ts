// The error classes, apart from the DTOs of their wire form (errors.ts): what the embedded SDK
// loads without class-validator.

/**
 * The platform's small error hierarchy. Every error that crosses a boundary (HTTP, NATS) carries a
 * stable `code`; the gateway maps codes to HTTP statuses in one filter, the bus in one codec.
 */
export const ERROR_CODES = [
  'bad_request',
  'invalid_params',
  'not_found',
  'conflict',
  'idempotency_conflict',
  'forbidden',
  'unauthorized',
  'payload_too_large',
  'rate_limited',
  'budget_exceeded',
  'timeout',
  'cancelled',
  'unavailable',
  'function_error',
  /** A call was in flight when its run's executor stopped: whether it ran is not known. */
  'outcome_unknown',
  'upstream_error',
  'method_not_allowed',
  'unsupported_media_type',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error's wire form, as the `ErrorBody` DTO of errors.ts validates it (kept apart: no import circle). */
export interface ErrorBodyShape {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): ErrorBodyShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBodyShape): AppError {
    return new AppError(body.code, body.message, body.details);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: unknown) {
    super('bad_request', message, details);
  }
}

/** One entry per bad field, so a caller (or a model) can fix them all in one go. */
export interface FieldError {
  field: string;
  message: string;
}

export class InvalidParamsError extends AppError {
  constructor(
    readonly fields: FieldError[],
    prefix = 'invalid parameters',
  ) {
    super('invalid_params', `${prefix}: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, fields);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, name: string, details?: unknown) {
    super('not_found', `${what} '${name}' not found`, details);
  }
}

/** No agent has the name; `details.agent` names it, so it is known as such across the bus too. */
export class AgentNotFoundError extends NotFoundError {
  constructor(name: string) {
    super('agent', name, { agent: name });
  }

  /** The name of the agent an error body says does not exist, if it says so. */
  static agentOf(body: ErrorBodyShape): string | undefined {
    const agent = (body.details as { agent?: unknown } | undefined)?.agent;
    return body.code === 'not_found' && typeof agent === 'string' ? agent : undefined;
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super('conflict', message, details);
  }
}

/** An `Idempotency-Key` already used for another request body. */
export class IdempotencyConflictError extends AppError {
  constructor(key: string) {
    super('idempotency_conflict', `the Idempotency-Key '${key}' was used with another request body`, {
      idempotency_key: key,
    });
  }
}

export class TimeoutError extends AppError {
  constructor(message: string) {
    super('timeout', message);
  }
}

export class UnavailableError extends AppError {
  constructor(message: string, details?: unknown) {
    super('unavailable', message, details);
  }
}

/**
 * A run its executor gave up without ending it (it stopped, or lost the run's lease): another
 * executor carries it on, so its caller follows the stored run instead of taking this as the answer.
 */
export class RunHandedOverError extends UnavailableError {
  constructor(runId: string) {
    super(`run '${runId}' moved to another agent-executor`, { run_id: runId, handed_over: true });
  }

  static is(err: unknown): boolean {
    if (!(err instanceof AppError) || err.code !== 'unavailable') return false;
    const details = err.details as { handed_over?: unknown } | undefined;
    return details?.handed_over === true;
  }
}

export class FunctionFailedError extends AppError {
  constructor(message: string, details?: unknown) {
    super('function_error', message, details);
  }
}

/**
 * Codes of a server that was not reached or went away under a query (the network's; PostgreSQL's
 * administrator or crash shutdown, "cannot connect now" and connection failures; Prisma's "can't
 * reach the database" and "connection closed"): the platform is unavailable for a while, not broken.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  // too many connections: a restarted server meets every client's reconnection at once
  '53300',
  // Prisma's codes for its driver adapter's kinds: DatabaseNotReachable, SocketTimeout,
  // ConnectionClosed, TooManyConnections
  'P1001',
  'P1008',
  'P1017',
  'P2037',
]);

/** Turns anything thrown into an AppError without leaking internals of unknown errors. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isErrorBody(err)) return AppError.fromBody(err);
  if (serverGone(err))
    return new UnavailableError('a server the platform depends on cannot be reached; try again shortly');
  return new AppError('internal', 'internal error');
}

interface DriverErrorShape {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
}

/**
 * A database or network server that could not be reached or cut the connection: by the error's own
 * code, or, for Prisma's wrapper of a driver's error ("Database error. Code: `57P01`", P2039), by
 * the driver's code it carries.
 */
export function serverGone(err: unknown): boolean {
  const { code, meta } = (err ?? {}) as DriverErrorShape;
  const driverCode = meta?.driverAdapterError?.cause?.originalCode;
  return (
    UNAVAILABLE_CODES.has(String(code)) ||
    UNAVAILABLE_CODES.has(String(driverCode)) ||
    (err instanceof Error && code === undefined && CONNECTION_DROPPED.has(err.message))
  );
}

/**
 * node-postgres's errors, without a code, for a connection the server closed without a word (what
 * every query in flight gets when PostgreSQL crashes or is stopped immediately, `-m immediate`),
 * and for a client used again after its connection failed.
 */
const CONNECTION_DROPPED = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
]);

/** A body in the platform's error shape: a code of its own list (a Node or driver error has a code too). */
export function isErrorBody(value: unknown): value is ErrorBodyShape {
  return (
    typeof value === 'object' &&
    value !== null &&
    (ERROR_CODES as readonly string[]).includes((value as ErrorBodyShape).code) &&
    typeof (value as ErrorBodyShape).message === 'string'
  );
}
