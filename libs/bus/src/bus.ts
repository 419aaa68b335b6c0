import {
  connect,
  credsAuthenticator,
  headers as natsHeaders,
  type Msg,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { AppError, type ErrorBody, toAppError } from '@app/contracts';
import {
  Metrics,
  SpanKind,
  inSpan,
  subjectFamily,
  traceHeaders,
  withRemoteContext,
} from '@app/observability';
import { mapRequestError, NatsUnavailableError } from './bus-errors';
import { type BusHeaders, fromNatsHeaders, toNatsHeaders } from './bus-headers';

export type { BusHeaders };
import { ConnectionLostError, type ConnectionListener, ConnectionWatch } from './connection-watch';
import { sendWhenConnected } from './send-when-connected';
import { decodeJson, encodeJson } from './json.codec';
import {
  PROGRESS_HEADER,
  type ProgressMessage,
  type ProgressOptions,
  progressRequest,
} from './progress-request';

export interface BusOptions {
  url: string;
  name: string;
  user?: string;
  password?: string;
  credsFile?: string;
  /** TLS: a CA to trust and, for mutual TLS, a client certificate and key. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

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

type Envelope = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

/**
 * The platform's one door to NATS: JSON request/reply with a typed error envelope, queue-group
 * handlers, publish/subscribe and scatter-gather. Errors become replies here and only here.
 */
export class Bus {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly served: Subscription[] = [];
  private readonly watch: ConnectionWatch;

  private constructor(readonly connection: NatsConnection) {
    this.watch = new ConnectionWatch(connection);
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
      servers: options.url.replace(/^nats:\/\//, ''),
      name: options.name,
      user: options.user,
      pass: options.password,
      authenticator: options.credsFile ? credsAuthenticator(readFileSync(options.credsFile)) : undefined,
      tls: options.tls && (options.tls.caFile || options.tls.certFile) ? options.tls : undefined,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // Every request would otherwise capture a stack trace up front, just in case it fails;
      // our errors name the subject, which says more than nats.js's internal frames.
      noAsyncTraces: true,
    });
    return new Bus(connection);
  }

  /**
   * Request/reply with the active trace context in the headers; untraced for probes. A request
   * in flight when the connection drops fails at once with `ConnectionLostError`, and one asked
   * while it is down with `NatsUnavailableError`; with `retryOnReconnect`, either is sent (again)
   * once the connection is back, within its timeout.
   */
  async request<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
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
      const timeout = Math.max(1, Math.round(options.timeoutMs));
      const asked = options.progress
        ? progressRequest(
            this.connection,
            subject,
            encodeJson(payload),
            toNatsHeaders(options.headers) ?? natsHeaders(),
            timeout,
            options.progress,
          )
        : this.connection.request(subject, encodeJson(payload), {
            timeout,
            headers: toNatsHeaders(options.headers),
          });
      reply = await this.watch.interruptible(subject, asked);
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

  /** Answers requests on `subject`; with a queue, replicas share the load. */
  serve(subject: string, handler: Handler, options: { queue?: string; traced?: boolean } = {}): Subscription {
    const subscription = this.connection.subscribe(subject, {
      queue: options.queue,
      callback: (err, msg) => {
        if (err || !msg.reply) return;
        const answering = this.answer(msg, handler, options.traced !== false);
        this.inFlight.add(answering);
        void answering.finally(() => this.inFlight.delete(answering));
      },
    });
    this.served.push(subscription);
    return subscription;
  }

  publish(subject: string, payload: unknown, headers?: BusHeaders): void {
    this.connection.publish(subject, encodeJson(payload), { headers: toNatsHeaders(headers) });
  }

  subscribe(subject: string, onMessage: (data: unknown, ctx: HandlerContext) => void): Subscription {
    return this.connection.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        try {
          onMessage(decodeJson(msg.data), { subject: msg.subject, headers: fromNatsHeaders(msg.headers) });
        } catch {
          // a malformed event is dropped: publishers are our own services
        }
      },
    });
  }

  /** Asks every responder and collects the answers that arrive within `maxWaitMs`. */
  async gather<T>(subject: string, payload: unknown, maxWaitMs: number): Promise<T[]> {
    const results: T[] = [];
    try {
      const replies = await this.connection.requestMany(subject, encodeJson(payload), {
        strategy: 'timer',
        maxWait: maxWaitMs,
      });
      for await (const reply of replies) {
        const envelope = decodeJson(reply.data) as Envelope;
        if (envelope.ok) results.push(envelope.data as T);
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
      await Promise.all(this.served.map((s) => s.drain().catch(() => undefined)));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
      clearTimeout(timer);
    }
    await this.connection.drain().catch(() => undefined);
  }

  private async answer(msg: Msg, handler: Handler, traced: boolean): Promise<void> {
    const headers = fromNatsHeaders(msg.headers);
    const progress =
      headers[PROGRESS_HEADER] && msg.reply
        ? (data: unknown) => {
            const body: ProgressMessage = { progress: data };
            if (!this.connection.isClosed()) this.connection.publish(msg.reply!, encodeJson(body));
          }
        : undefined;
    const run = async (): Promise<Envelope> => {
      try {
        const result = await handler(decodeJson(msg.data), { subject: msg.subject, headers, progress });
        return { ok: true, data: result };
      } catch (err) {
        return { ok: false, error: toAppError(err).toBody() };
      }
    };
    const envelope = traced
      ? await withRemoteContext(headers, () =>
          inSpan(
            `process ${msg.subject}`,
            { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats' } },
            run,
          ),
        )
      : await run();
    try {
      msg.respond(encodeJson(envelope));
    } catch {
      // the connection is closing; the caller's deadline will tell it
    }
  }
}
