import { parseDto, prepareDto } from './validate';

declare const replyType: unique symbol;
declare const requestType: unique symbol;

/** A reply's type, for the compiler only: replies come from the platform's own services. */
export interface ReplyOf<R> {
  readonly [replyType]?: R;
}

/** Names a route's reply type where no class describes it (a union, an array, an interface). */
export function replyOf<R>(): ReplyOf<R> {
  return {};
}

/** A route whose requests carry no body: `{}` is sent, and the handler is given nothing. */
export const NO_BODY = Symbol('no body');

/**
 * One request/reply subject with what travels on it: the request's DTO class (the responder parses
 * and validates every request with it), the reply's type, and how long a caller waits by default.
 * A route without `timeoutMs` (a run, a function call) has no sensible default: each caller gives
 * its own deadline.
 */
export interface Route<Q = unknown, R = unknown, T extends number | undefined = number | undefined> {
  readonly subject: string;
  /** Validates an incoming request; throws `InvalidParamsError`/`BadRequestError` on a bad one. */
  readonly parse: (input: unknown) => Q;
  /** Compiles the request's validator now (a server starting to serve), not at the first request. */
  readonly prepare: () => void;
  readonly timeoutMs: T;
  /** The responders' queue group: one member answers each request. None: every subscriber may. */
  readonly queue?: string;
  /** Safe to ask twice: a request interrupted by a lost connection is sent again once it is back. */
  readonly read: boolean;
  /** False for health probes: no span, no trace context. */
  readonly traced: boolean;
  /** The request's type as a value, for the compiler (`parse`, a function, would let any type pass as `void`). */
  readonly [requestType]?: Q;
  readonly [replyType]?: R;
}

/** A route with a default timeout: callers may leave the deadline to it. */
export type TimedRoute<Q = unknown, R = unknown> = Route<Q, R, number>;

export interface RouteOptions {
  timeoutMs?: number;
  queue?: string;
  read?: boolean;
  traced?: boolean;
  /** What the request is called in a validation error ("invalid function call"). */
  what?: string;
}

type RequestSchema<Q> = (new () => Q & object) | typeof NO_BODY;
type ReplySchema<R> = (abstract new (...args: never[]) => R) | ReplyOf<R>;

/** Declares a route; see `Routes` for every route of the platform. */
export function route<Q extends object, R>(
  subject: string,
  request: new () => Q,
  reply: ReplySchema<R>,
  options: RouteOptions & { timeoutMs: number },
): TimedRoute<Q, R>;
export function route<R>(
  subject: string,
  request: typeof NO_BODY,
  reply: ReplySchema<R>,
  options: RouteOptions & { timeoutMs: number },
): TimedRoute<void, R>;
export function route<Q extends object, R>(
  subject: string,
  request: new () => Q,
  reply: ReplySchema<R>,
  options?: RouteOptions & { timeoutMs?: undefined },
): Route<Q, R, undefined>;
export function route<Q, R>(
  subject: string,
  request: RequestSchema<Q>,
  _reply: ReplySchema<R>,
  options: RouteOptions = {},
): Route<Q, R> {
  const parse =
    request === NO_BODY
      ? () => undefined as Q
      : (input: unknown) => parseDto(request, input, options.what) as Q;
  return {
    subject,
    parse,
    prepare: () => {
      if (request !== NO_BODY) prepareDto(request);
    },
    timeoutMs: options.timeoutMs,
    queue: options.queue,
    read: options.read ?? false,
    traced: options.traced ?? true,
  };
}
