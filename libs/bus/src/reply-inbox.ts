import {
  createInbox,
  errors,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { TimeoutError } from '@app/contracts';
import { NoRespondersError } from './bus-errors';
import { ConnectionLostError, type ConnectionWatch } from './connection-watch';
import { decodeJson } from './json.codec';
import { ListeningTime } from './listening-time';
import {
  PROGRESS_HEADER,
  type ProgressMessage,
  type ProgressOptions,
  ResponderGoneError,
  type TakenMessage,
} from './progress-request';

type ReplyHandler = (err: Error | null, msg?: Msg) => void;

/**
 * The replies of every request of one connection, on one wildcard subscription (`<inbox>.*`, a
 * token per request): a subscription per request would cost a SUB and an UNSUB through the broker
 * for every call. Plain requests come here too, not through nats.js's own multiplexer, which
 * creates a `RequestError` (its stack trace captured) for every request it has answered; failing
 * as it fails them: when the connection closes, and when the broker refuses the request's publish.
 * A request in flight when the connection drops fails at once with `ConnectionLostError`: a reply
 * sent during the outage is lost, so waiting for it would only end at the request's timeout.
 */
export class ReplyInbox {
  private readonly prefix: string;
  private readonly waiting = new Map<string, { subject: string; settle: ReplyHandler }>();
  private readonly listening = new ListeningTime();
  private subscription?: Subscription;
  private next = 0;

  constructor(
    private readonly connection: NatsConnection,
    watch: ConnectionWatch,
    inboxPrefix?: string,
  ) {
    this.prefix = createInbox(inboxPrefix);
    watch.on((change) => {
      if (change === 'disconnected') this.failAll((subject) => new ConnectionLostError(subject));
    });
    watch.onRefusedPublish((refused) => this.failFirstOn(refused.subject, refused));
    void connection.closed().then(() => this.failAll(() => new errors.RequestError('connection closed')));
  }

  /**
   * A request, answered by the first message on its reply inbox; with `progress`, one whose
   * responder sends progress messages there before its reply. Ends with the reply's message, or
   * fails on no responders, on the timeout, or when the responder has gone silent.
   */
  request(
    subject: string,
    data: Uint8Array,
    headers: MsgHdrs | undefined,
    timeoutMs: number,
    progress?: ProgressOptions,
  ): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      const token = String((this.next += 1));
      // the responder's time to take the request and to speak again is listening time, not wall clock
      let silence: (() => void) | undefined;
      const acceptMs = progress?.acceptMs;
      const accept =
        acceptMs === undefined
          ? undefined
          : this.listening.after(acceptMs, () =>
              end(() => reject(new ResponderGoneError(subject, undefined, acceptMs))),
            );
      const end = (settle: () => void) => {
        clearTimeout(overall);
        accept?.();
        silence?.();
        this.waiting.delete(token);
        settle();
      };
      const overall = setTimeout(
        () => end(() => reject(new TimeoutError(`'${subject}' did not answer within ${timeoutMs} ms`))),
        Math.max(1, Math.round(timeoutMs)),
      );
      const settle: ReplyHandler = (err, msg) => {
        if (err || !msg) return end(() => reject(err));
        if (msg.headers?.hasError && msg.headers.code === 503)
          return end(() => reject(new NoRespondersError(subject)));
        if (!progress) return end(() => resolve(msg));
        const body = decodeJson(msg.data) as Partial<ProgressMessage & TakenMessage> | null;
        if (body && typeof body === 'object' && body.taken === true) return accept?.();
        if (!body || typeof body !== 'object' || !('progress' in body)) return end(() => resolve(msg));
        accept?.();
        progress.onProgress?.(body.progress);
        silence?.();
        silence = this.listening.after(progress.silenceMs, () =>
          end(() => reject(new ResponderGoneError(subject, body.progress, progress.silenceMs))),
        );
      };
      this.waiting.set(token, { subject, settle });
      try {
        this.listen();
        if (progress) headers?.set(PROGRESS_HEADER, '1');
        this.connection.publish(subject, data, { reply: `${this.prefix}.${token}`, headers });
      } catch (err) {
        end(() => reject(err));
      }
    });
  }

  private listen(): void {
    if (this.subscription && !this.subscription.isClosed()) return;
    this.subscription = this.connection.subscribe(`${this.prefix}.*`, {
      callback: (err, msg) => {
        // the subscription itself failed (e.g. a permission): every waiting request with it
        if (err) return this.failAll(() => err);
        this.waiting.get(msg.subject.slice(this.prefix.length + 1))?.settle(null, msg);
      },
    });
  }

  private failAll(errorFor: (subject: string) => Error): void {
    for (const { subject, settle } of [...this.waiting.values()]) settle(errorFor(subject));
  }

  /** The broker refused a request's publish (a permission): the first request on that subject fails. */
  private failFirstOn(subject: string, refused: Error): void {
    for (const waiting of this.waiting.values()) {
      if (waiting.subject !== subject) continue;
      waiting.settle(refused);
      return;
    }
  }
}
