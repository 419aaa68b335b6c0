import {
  connect,
  credsAuthenticator,
  errors,
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { readFileSync } from 'node:fs';
import { AppError, type ErrorBody, TimeoutError, toAppError, UnavailableError } from '@app/contracts';
import {
  Metrics,
  SpanKind,
  inSpan,
  subjectFamily,
  traceHeaders,
  withRemoteContext,
} from '@app/observability';
import { decodeJson, encodeJson } from './json.codec';

export interface BusOptions {
  url: string;
  name: string;
  user?: string;
  password?: string;
  credsFile?: string;
  /** TLS: a CA to trust and, for mutual TLS, a client certificate and key. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

export type BusHeaders = Record<string, string>;

export interface HandlerContext {
  subject: string;
  headers: BusHeaders;
}

export type Handler = (data: unknown, ctx: HandlerContext) => Promise<unknown> | unknown;

export interface RequestOptions {
  timeoutMs: number;
  headers?: BusHeaders;
  /** false for health probes: no span, no trace context. */
  traced?: boolean;
}

type Envelope = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

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

/**
 * The platform's one door to NATS: JSON request/reply with a typed error envelope, queue-group
 * handlers, publish/subscribe and scatter-gather. Errors become replies here and only here.
 */
export class Bus {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly served: Subscription[] = [];
  private disconnected = false;

  private constructor(readonly connection: NatsConnection) {
    void this.followStatus();
  }

  /** False while the connection is down (reconnecting) or closed. */
  get connected(): boolean {
    return !this.disconnected && !this.connection.isClosed();
  }

  private async followStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') this.disconnected = true;
      if (status.type === 'reconnect') this.disconnected = false;
    }
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

  /** Request/reply with the active trace context in the headers; untraced for probes. */
  async request<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
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
      reply = await this.connection.request(subject, encodeJson(payload), {
        timeout: Math.max(1, Math.round(options.timeoutMs)),
        headers: toNatsHeaders(options.headers),
      });
    } catch (err) {
      const mapped = mapRequestError(subject, err, options.timeoutMs);
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
    const run = async (): Promise<Envelope> => {
      try {
        const result = await handler(decodeJson(msg.data), { subject: msg.subject, headers });
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

/** NATS's own error classes decide the mapping; their message texts are not a contract. */
function mapRequestError(subject: string, err: unknown, timeoutMs: number): AppError {
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

function toNatsHeaders(values?: BusHeaders): MsgHdrs | undefined {
  if (!values) return undefined;
  const entries = Object.entries(values);
  if (entries.length === 0) return undefined;
  const h = natsHeaders();
  for (const [k, v] of entries) h.set(k, v);
  return h;
}

function fromNatsHeaders(h?: MsgHdrs): BusHeaders {
  const out: BusHeaders = {};
  if (!h) return out;
  for (const k of h.keys()) out[k.toLowerCase()] = h.get(k);
  return out;
}
