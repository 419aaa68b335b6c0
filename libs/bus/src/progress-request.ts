import {
  createInbox,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { TimeoutError, UnavailableError } from '@app/contracts';
import { NoRespondersError } from './bus-errors';
import { decodeJson } from './json.codec';

/** The request header by which a caller asks its responder for progress messages. */
export const PROGRESS_HEADER = 'ac-progress';

export interface ProgressOptions {
  /** Once the responder has spoken, it must speak again within this long or be taken for gone. */
  silenceMs: number;
  /**
   * The responder must take the request within this long (its bus says so at once, before the
   * handler runs) or be taken for gone: one whose event loop is blocked never does.
   */
  acceptMs?: number;
  onProgress?: (progress: unknown) => void;
}

/**
 * The responder took the request, sent progress, then fell silent for longer than allowed: it
 * died (kill -9, a lost host) with the request in hand. `progress` is the last it said. Or the
 * responder the request was delivered to never took it (`progress` undefined): its event loop is
 * blocked, or it died with the request in its socket.
 */
export class ResponderGoneError extends UnavailableError {
  constructor(
    readonly subject: string,
    readonly progress: unknown,
    silenceMs: number,
  ) {
    super(
      progress === undefined
        ? `the responder to '${subject}' did not take it within ${silenceMs} ms`
        : `the responder to '${subject}' fell silent for ${silenceMs} ms`,
      { subject },
    );
  }
}

/** Sent on the reply inbox before the reply; told apart from the reply's `{ok}` envelope. */
export interface ProgressMessage {
  progress: unknown;
}

/** Sent by the responder's bus as soon as it takes a request that asked for progress. */
export interface TakenMessage {
  taken: true;
}

type ReplyHandler = (err: Error | null, msg: Msg) => void;

/**
 * The replies of every progress-asking request of one connection, on one wildcard subscription
 * (`<inbox>.*`, a token per request), as nats.js multiplexes plain requests: a subscription per
 * request would cost a SUB and an UNSUB through the broker for every function call.
 */
export class ProgressInbox {
  private readonly prefix = createInbox();
  private readonly waiting = new Map<string, ReplyHandler>();
  private subscription?: Subscription;
  private next = 0;

  constructor(private readonly connection: NatsConnection) {}

  /**
   * A request whose responder sends progress messages on the reply inbox before its reply. Ends
   * with the reply's message, or fails on no responders, on the timeout, or when the responder
   * has gone silent.
   */
  request(
    subject: string,
    data: Uint8Array,
    headers: MsgHdrs,
    timeoutMs: number,
    options: ProgressOptions,
  ): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      const token = String((this.next += 1));
      let silence: NodeJS.Timeout | undefined;
      const acceptMs = options.acceptMs;
      const accept =
        acceptMs === undefined
          ? undefined
          : setTimeout(
              () => end(() => reject(new ResponderGoneError(subject, undefined, acceptMs))),
              acceptMs,
            );
      const end = (settle: () => void) => {
        clearTimeout(overall);
        clearTimeout(accept);
        clearTimeout(silence);
        this.waiting.delete(token);
        settle();
      };
      const overall = setTimeout(
        () => end(() => reject(new TimeoutError(`'${subject}' did not answer within ${timeoutMs} ms`))),
        Math.max(1, Math.round(timeoutMs)),
      );
      this.waiting.set(token, (err, msg) => {
        if (err) return end(() => reject(err));
        if (msg.headers?.hasError && msg.headers.code === 503)
          return end(() => reject(new NoRespondersError(subject)));
        const body = decodeJson(msg.data) as Partial<ProgressMessage & TakenMessage> | null;
        if (body && typeof body === 'object' && body.taken === true) return clearTimeout(accept);
        if (!body || typeof body !== 'object' || !('progress' in body)) return end(() => resolve(msg));
        clearTimeout(accept);
        options.onProgress?.(body.progress);
        clearTimeout(silence);
        silence = setTimeout(
          () => end(() => reject(new ResponderGoneError(subject, body.progress, options.silenceMs))),
          options.silenceMs,
        );
      });
      this.listen();
      headers.set(PROGRESS_HEADER, '1');
      this.connection.publish(subject, data, { reply: `${this.prefix}.${token}`, headers });
    });
  }

  private listen(): void {
    if (this.subscription && !this.subscription.isClosed()) return;
    this.subscription = this.connection.subscribe(`${this.prefix}.*`, {
      callback: (err, msg) => {
        if (err) {
          // the subscription itself failed (e.g. a permission): every waiting request with it
          for (const handler of [...this.waiting.values()]) handler(err, msg);
          return;
        }
        this.waiting.get(msg.subject.slice(this.prefix.length + 1))?.(null, msg);
      },
    });
  }
}
