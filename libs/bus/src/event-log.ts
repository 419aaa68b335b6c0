import { createInbox, nanos } from '@nats-io/transport-node';
import {
  DiscardPolicy,
  type JetStreamManager,
  type JsMsg,
  type PushConsumer,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { type BusEvent, UnavailableError } from '@app/contracts';
import type { Bus } from './bus';
import { readDirect } from './direct-reader';
import { decodeJson } from './json.codec';

export interface EventLogOptions {
  /** The JetStream stream's name. */
  stream: string;
  /** The event subjects it keeps (patterns): what is published on them is stored as it is published. */
  subjects: string[];
  /** Events older than this are dropped by the server (ms). */
  maxAgeMs: number;
  /** Most bytes kept: past it, the oldest events are dropped first. */
  maxBytes: number;
  /** Copies of the stream in a NATS cluster. */
  replicas: number;
  /** Limit of each API call (ms). */
  timeoutMs?: number;
}

/** One stored event: its payload and its place in the stream (increasing, never reused). */
export interface LoggedEvent<T> {
  payload: T;
  seq: number;
}

/**
 * Events published on the bus, kept for a while in a JetStream stream (file storage, limits by age
 * and size), so that a reader can come back and read them again from any place. Publishers do not
 * change: the stream stores what is published on its subjects. Every failure to reach JetStream
 * is `unavailable`.
 */
export class EventLog {
  private constructor(
    private readonly bus: Bus,
    private readonly jsm: JetStreamManager,
    private readonly options: EventLogOptions,
    private readonly timeout: number,
  ) {}

  /** Opens the stream, creating it, or updating its limits and replicas when they changed. */
  static async open(bus: Bus, options: EventLogOptions): Promise<EventLog> {
    const timeout = options.timeoutMs ?? 2_000;
    const jsm = await failsUnavailable(options.stream, 'open', async () => {
      const jsm = await jetstreamManager(bus.connection, { timeout, checkAPI: false });
      const config = {
        name: options.stream,
        subjects: options.subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        max_age: nanos(options.maxAgeMs),
        max_bytes: options.maxBytes,
        num_replicas: options.replicas,
        // any replica answers a direct get: what a reader falls back to (direct-reader.ts)
        allow_direct: true,
      };
      const existing = await jsm.streams.info(options.stream).catch(() => undefined);
      if (!existing) await jsm.streams.add(config);
      else if (differs(existing.config, config)) await jsm.streams.update(options.stream, config);
      return jsm;
    });
    return new EventLog(bus, jsm, options, timeout);
  }

  /**
   * The last event stored on `event`'s subject, or undefined when it holds none. Asked of the
   * stream's leader; while it has none (a replica's node went down and the stream elects anew, when
   * nats-server 2.9's leader-held API times out) by a direct get, which any replica answers.
   */
  async last<T>(event: BusEvent<T>): Promise<LoggedEvent<T> | undefined> {
    const { stream } = this.options;
    const query = { last_by_subj: event.subject };
    const stored = await failsUnavailable(stream, 'read', () =>
      this.jsm.streams.getMessage(stream, query).catch((err: Error) =>
        this.jsm.direct.getMessage(stream, query).catch((direct: unknown) => {
          throw new Error(`${err.message}; by direct get: ${messageOf(direct)}`);
        }),
      ),
    );
    return stored ? { payload: decodeJson(stored.data) as T, seq: stored.seq } : undefined;
  }

  /**
   * Calls `onEvent` with each event on `event`'s subject stored after `afterSeq` (0: all it holds),
   * in order, then with each one as it is stored, until the returned `stop` is called. An ordered
   * consumer: after a lost connection it goes on from the last event it delivered, none missed, none
   * twice. When the consumer cannot be created (nats-server 2.9 may place it on a replica of the
   * stream that is down, and its creation times out), the events are read by direct gets instead,
   * which any replica answers (direct-reader.ts).
   */
  async read<T>(
    event: BusEvent<T>,
    afterSeq: number,
    onEvent: (logged: LoggedEvent<T>) => void,
  ): Promise<() => void> {
    const consumer = await this.pushConsumer(event.subject, afterSeq).catch((err: unknown) => err as Error);
    if (consumer instanceof Error) {
      const at = { stream: this.options.stream, subject: event.subject, afterSeq };
      return failsUnavailable(this.options.stream, 'read', () =>
        readDirect(this.bus.connection, this.jsm, at, onEvent).catch((direct: unknown) => {
          throw new Error(`${consumer.message}; by direct get: ${messageOf(direct)}`);
        }),
      );
    }
    const messages = await failsUnavailable(this.options.stream, 'read', () =>
      consumer.consume({
        callback: (msg: JsMsg) => onEvent({ payload: decodeJson(msg.data) as T, seq: msg.seq }),
      }),
    );
    return () => void messages.close().catch(() => undefined);
  }

  private pushConsumer(subject: string, afterSeq: number): Promise<PushConsumer> {
    return jetstream(this.bus.connection, {
      timeout: this.timeout,
      checkAPI: false,
    }).consumers.getPushConsumer(this.options.stream, {
      filter_subjects: subject,
      opt_start_seq: afterSeq + 1,
      // on the connection's own inbox, the one its NATS user may subscribe to
      deliver_prefix: createInbox(this.bus.inboxPrefix),
    });
  }
}

/** Whether the stream's settings differ from those wanted (so an update is sent only when needed). */
function differs(have: object, want: Record<string, unknown>): boolean {
  const current = have as Record<string, unknown>;
  return Object.entries(want).some(([key, value]) => JSON.stringify(current[key]) !== JSON.stringify(value));
}

async function failsUnavailable<T>(stream: string, what: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    throw new UnavailableError(`could not ${what} the event stream '${stream}': ${messageOf(err)}`, {
      part: 'jetstream',
    });
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
