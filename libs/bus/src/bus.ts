import {
  connect,
  credsAuthenticator,
  headers as natsHeaders,
  type Msg,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { AppError, type BusEvent, type Route, type TimedRoute } from '@app/contracts';
import { Metrics, SpanKind, inSpan, subjectFamily, traceHeaders } from '@app/observability';
import { answer, type Envelope } from './answer';
import { mapRequestError, NatsUnavailableError } from './bus-errors';
import { type BusHeaders, fromNatsHeaders, toNatsHeaders } from './bus-headers';
import type {
  BusOptions,
  CallOptions,
  Deadline,
  Handler,
  HandlerContext,
  RequestOptions,
  RouteHandler,
  UnexpectedErrorListener,
} from './bus.types';
import { ConnectionLostError, type ConnectionListener, ConnectionWatch } from './connection-watch';
import { decodeJson, encodeJson } from './json.codec';
import { ReplyInbox } from './reply-inbox';
import { timeoutOf } from './route-timeout';
import { sendWhenConnected } from './send-when-connected';

export type { BusHeaders };

/**
 * The platform's one door to NATS: JSON request/reply with a typed error envelope, queue-group
 * handlers, publish/subscribe and scatter-gather. Errors become replies here and only here.
 */
export class Bus {
  private readonly inFlight = new Set<Promise<void>>();
  /** Open handler subscriptions, to drain on a graceful stop; a run's own leave it when they close. */
  private readonly served = new Set<Subscription>();
  private readonly watch: ConnectionWatch;
  private readonly replies: ReplyInbox;

  private constructor(
    readonly connection: NatsConnection,
    /** Where its connection takes what is sent to it (replies, consumers' deliveries). */
    readonly inboxPrefix?: string,
    /** Copies of each stream and bucket the platform creates: 3 on a cluster of three (see KvBucket.open). */
    readonly jetstreamReplicas = 1,
    private readonly onUnexpectedError?: UnexpectedErrorListener,
  ) {
    this.watch = new ConnectionWatch(connection);
    this.replies = new ReplyInbox(connection, this.watch, inboxPrefix);
  }

  /** False while the connection is down (reconnecting) or closed. */
  get connected(): boolean {
    return this.watch.connected;
  }

  /** Calls `listener` on each disconnect and reconnect of the connection; returns the way to stop. */
  onConnectionChange(listener: ConnectionListener): () => void {
    return this.watch.on(listener);
  }

  /** See `ConnectionWatch.untilConnected`. */
  untilConnected(timeoutMs: number): Promise<boolean> {
    return this.watch.untilConnected(timeoutMs);
  }

  static async connect(options: BusOptions): Promise<Bus> {
    const connection = await connect({
      servers: serverList(options.url),
      name: options.name,
      user: options.user,
      pass: options.password,
      authenticator: options.credsFile ? credsAuthenticator(readFileSync(options.credsFile)) : undefined,
      inboxPrefix: options.inboxPrefix,
      tls: options.tls && (options.tls.caFile || options.tls.certFile) ? options.tls : undefined,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // Every request would otherwise capture a stack trace up front, just in case it fails;
      // our errors name the subject, which says more than nats.js's internal frames.
      noAsyncTraces: true,
    });
    return new Bus(connection, options.inboxPrefix, options.jetstreamReplicas, options.onUnexpectedError);
  }

  /**
   * Asks a route (see `Routes` in @app/contracts) and resolves with its typed reply. The timeout
   * is the route's, or the caller's (`timeoutMs`, `deadline`: the sooner wins); a route that is a
   * read is sent again once if the connection drops under it. A request in flight when the
   * connection drops fails at once with `ConnectionLostError`, and one asked while it is down with
   * `NatsUnavailableError`. No responders is `NoRespondersError`, no reply in time `timeout`.
   */
  request<R>(route: TimedRoute<void, R>, body?: undefined, options?: CallOptions): Promise<R>;
  request<Q, R>(route: TimedRoute<Q, R>, body: NoInfer<Q>, options?: CallOptions): Promise<R>;
  request<Q, R>(route: Route<Q, R>, body: NoInfer<Q>, options: CallOptions & Deadline): Promise<R>;
  request(target: Route, payload: unknown, options?: CallOptions): Promise<unknown> {
    return this.ask(target.subject, payload ?? {}, {
      timeoutMs: timeoutOf(target, options),
      headers: options?.headers,
      progress: options?.progress,
      traced: target.traced,
      retryOnReconnect: target.read,
    });
  }

  private async ask<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
    if (!options.retryOnReconnect) {
      // sent into an outage, a request would wait for its timeout if the buffered message is lost
      if (!this.watch.connected)
        throw new NatsUnavailableError(
          this.connection.isClosed() ? 'the connection is closed' : 'reconnecting',
        );
      return this.requestOnce<T>(subject, payload, options);
    }
    const deadline = Date.now() + options.timeoutMs;
    const send = (timeoutMs: number) => this.requestOnce<T>(subject, payload, { ...options, timeoutMs });
    try {
      return await sendWhenConnected(this.watch, subject, deadline, send);
    } catch (err) {
      if (!(err instanceof ConnectionLostError)) throw err;
      return sendWhenConnected(this.watch, subject, deadline, send, err);
    }
  }

  private requestOnce<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
    if (options.traced === false) return this.send<T>(subject, payload, options);
    return inSpan(
      `send ${subject}`,
      { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats' } },
      () => this.send<T>(subject, payload, { ...options, headers: traceHeaders({ ...options.headers }) }),
    );
  }

  private async send<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
    const started = performance.now();
    const observe = (status: string) =>
      Metrics.busRequestDuration().observe(
        { subject: subjectFamily(subject), status },
        (performance.now() - started) / 1000,
      );
    let reply: Msg;
    try {
      reply = await this.replies.request(
        subject,
        encodeJson(payload),
        toNatsHeaders(options.headers) ?? (options.progress ? natsHeaders() : undefined),
        options.timeoutMs,
        options.progress,
      );
    } catch (err) {
      const mapped = err instanceof AppError ? err : mapRequestError(subject, err, options.timeoutMs);
      observe(mapped.code);
      throw mapped;
    }
    const envelope = decodeJson(reply.data) as Envelope;
    observe(envelope.ok ? 'ok' : envelope.error.code);
    if (!envelope.ok) throw AppError.fromBody(envelope.error);
    return envelope.data as T;
  }

  /**
   * Answers a route's requests, each parsed and validated with the route's DTO class first (a bad
   * one is answered `invalid_params`). The route's queue group shares the load among replicas;
   * `queue` replaces it (a function provider's own group).
   */
  serve<Q, R>(
    route: Route<Q, R>,
    handler: RouteHandler<NoInfer<Q>, NoInfer<R>>,
    options?: { queue?: string },
  ): Subscription;
  serve(target: Route, handler: Handler, options: { queue?: string } = {}): Subscription {
    target.prepare();
    return this.answerOn(target.subject, (data, ctx) => handler(target.parse(data), ctx), {
      queue: options.queue ?? target.queue,
      traced: target.traced,
    });
  }

  private answerOn(
    subject: string,
    handler: Handler,
    options: { queue?: string; traced: boolean },
  ): Subscription {
    const subscription = this.connection.subscribe(subject, {
      queue: options.queue,
      callback: (err, msg) => {
        if (err || !msg.reply) return;
        const answering = answer(this.connection, msg, handler, options.traced, this.onUnexpectedError);
        this.inFlight.add(answering);
        void answering.finally(() => this.inFlight.delete(answering));
      },
    });
    this.served.add(subscription);
    const forget = () => this.served.delete(subscription);
    void subscription.closed.then(forget, forget);
    return subscription;
  }

  publish<T>(event: BusEvent<T>, payload: T, headers?: BusHeaders): void {
    this.connection.publish(event.subject, encodeJson(payload), { headers: toNatsHeaders(headers) });
  }

  subscribe<T>(event: BusEvent<T>, onMessage: (data: T, ctx: HandlerContext) => void): Subscription {
    return this.connection.subscribe(event.subject, {
      callback: (err, msg) => {
        if (err) return;
        try {
          onMessage(decodeJson(msg.data) as T, {
            subject: msg.subject,
            headers: fromNatsHeaders(msg.headers),
          });
        } catch {
          // a malformed event is dropped: publishers are our own services
        }
      },
    });
  }

  /** Asks every responder of a route and collects the answers that arrive within its timeout (or `maxWaitMs`). */
  async gather<R>(route: Route<void, R>, maxWaitMs?: number): Promise<R[]> {
    const maxWait = timeoutOf(route, { timeoutMs: maxWaitMs });
    const results: R[] = [];
    try {
      const replies = await this.connection.requestMany(route.subject, encodeJson({}), {
        strategy: 'timer',
        maxWait,
      });
      for await (const reply of replies) {
        const envelope = decodeJson(reply.data) as Envelope;
        if (envelope.ok) results.push(envelope.data as R);
      }
    } catch {
      // no responders: an empty answer
    }
    return results;
  }

  async flush(): Promise<void> {
    await this.connection.flush();
  }

  /**
   * Graceful stop: take no new requests, let those in flight answer (up to `timeoutMs`), then
   * drain and close the connection. Replicas in the same queue group pick up the new requests.
   */
  async drain(timeoutMs = 0): Promise<void> {
    if (this.connection.isClosed()) return;
    if (timeoutMs > 0 && this.inFlight.size > 0) {
      await Promise.all([...this.served].map((s) => s.drain().catch(() => undefined)));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
      clearTimeout(timer);
    }
    await this.connection.drain().catch(() => undefined);
  }
}

/** `nats://a:4222,nats://b:4222` → the client's server list; it tries them in turn and fails over. */
export function serverList(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim().replace(/^nats:\/\//, ''))
    .filter(Boolean);
}
