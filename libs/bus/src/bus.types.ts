import type { BusHeaders } from './bus-headers';
import type { ProgressOptions } from './progress-request';

export interface BusOptions {
  /** One server's URL, or several separated by commas (the nodes of a cluster): the client fails over between them. */
  url: string;
  name: string;
  user?: string;
  password?: string;
  credsFile?: string;
  /** Where the connection's replies arrive (`Subjects.inbox(service)`); `_INBOX` by default. */
  inboxPrefix?: string;
  /** TLS: a CA to trust and, for mutual TLS, a client certificate and key. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  /** How many servers keep a copy of each stream and key-value bucket the platform creates (1 by default). */
  jetstreamReplicas?: number;
  /**
   * Told of an error a handler threw that is not the platform's own: its caller is answered
   * `internal error`, naming nothing inside, so this is where it is seen whole (the service logs it).
   */
  onUnexpectedError?: UnexpectedErrorListener;
}

export type UnexpectedErrorListener = (err: unknown, subject: string) => void;

export interface HandlerContext {
  subject: string;
  headers: BusHeaders;
  /** When the caller asked for progress: sends a progress message on its reply inbox. */
  progress?: (data: unknown) => void;
}

export type Handler = (data: unknown, ctx: HandlerContext) => Promise<unknown> | unknown;

export interface RequestOptions {
  timeoutMs: number;
  headers?: BusHeaders;
  /** false for health probes: no span, no trace context. */
  traced?: boolean;
  /**
   * For requests safe to repeat (reads): one interrupted by a lost connection is sent once more
   * when the connection is back, within the same `timeoutMs`.
   */
  retryOnReconnect?: boolean;
  /** Lets the responder send progress before its reply, and fails the request once it falls silent. */
  progress?: ProgressOptions;
}

/** A request on a route: its timeout and retry come from the route unless the caller has a deadline. */
export interface CallOptions {
  /** Waits this long instead of the route's timeout (a caller whose own limit is known: a run's, a call's). */
  timeoutMs?: number;
  /** An absolute deadline (epoch ms): the request waits no longer than it, nor than its timeout. */
  deadline?: number;
  headers?: BusHeaders;
  progress?: ProgressOptions;
}

/** A route without a timeout of its own needs the caller's. */
export type Deadline = { timeoutMs: number } | { deadline: number };

/** Answers one route's requests: the request is parsed and validated with the route's DTO class first. */
export type RouteHandler<Q, R> = (request: Q, ctx: HandlerContext) => Promise<R> | R;

/** A subscription the bus made (`serve`, `subscribe`): what a caller keeps to stop it. */
export type { Subscription } from '@nats-io/transport-node';
