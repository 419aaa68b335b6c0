import { headers as natsHeaders, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { UnavailableError } from '@app/contracts';
import { mapRequestError } from './bus-errors';
import { decodeJson, encodeJson } from './json.codec';

export interface KvEntry {
  value: unknown;
  revision: number;
}

export interface KvBucketOptions {
  /** Entries older than this are dropped by the server (ms). */
  ttlMs: number;
  /** Limit of each operation (ms). */
  timeoutMs?: number;
}

/** JetStream's "wrong last sequence": the key was written by someone else first. */
const WRONG_LAST_SEQUENCE = 10071;
const NO_MESSAGE = 10037;
const STREAM_NAME_IN_USE = 10058;

interface ApiReply {
  error?: { code: number; err_code?: number; description?: string };
  seq?: number;
  message?: { data?: string; seq: number };
}

/**
 * A JetStream key-value bucket, laid out as NATS's own KV clients lay it out (stream `KV_<name>`,
 * subjects `$KV.<name>.<key>`, one value per key), so `nats kv` can read it. It speaks the
 * JetStream API over the bus's connection: create-if-absent and compare-and-set are the
 * server's expected-last-subject-sequence check, so exactly one writer wins a race.
 * Every failure to reach JetStream is `unavailable`.
 */
export class KvBucket {
  private readonly timeoutMs: number;

  private constructor(
    private readonly connection: NatsConnection,
    readonly name: string,
    timeoutMs: number,
  ) {
    this.timeoutMs = timeoutMs;
  }

  /** Opens the bucket, creating its stream (or updating its TTL) as needed. */
  static async open(connection: NatsConnection, name: string, options: KvBucketOptions): Promise<KvBucket> {
    const bucket = new KvBucket(connection, name, options.timeoutMs ?? 2_000);
    await bucket.ensureStream(options.ttlMs);
    return bucket;
  }

  /** Writes `value` if the key has none; its revision, or undefined when another writer was first. */
  create(key: string, value: unknown): Promise<number | undefined> {
    return this.put(key, value, 0);
  }

  /** Replaces the value at `revision`; undefined when it changed since. */
  update(key: string, value: unknown, revision: number): Promise<number | undefined> {
    return this.put(key, value, revision);
  }

  async get(key: string): Promise<KvEntry | undefined> {
    const reply = await this.api(`$JS.API.STREAM.MSG.GET.${this.stream}`, {
      last_by_subj: this.subject(key),
    });
    if (reply.error?.err_code === NO_MESSAGE) return undefined;
    this.check(reply, 'read');
    const { data, seq } = reply.message!;
    const bytes = data ? Buffer.from(data, 'base64') : new Uint8Array();
    return { value: decodeJson(bytes), revision: seq };
  }

  /**
   * Calls `onValue` with each value written to the key from now on (a core subscription: the
   * writes JetStream stores are also delivered to plain subscribers). Read the key after
   * watching, so that a write between the two is not missed.
   */
  async watch(key: string, onValue: (value: unknown) => void): Promise<() => void> {
    const sub: Subscription = this.connection.subscribe(this.subject(key), {
      callback: (err, msg) => {
        if (!err) onValue(decodeJson(msg.data));
      },
    });
    await this.connection.flush();
    return () => sub.unsubscribe();
  }

  private get stream(): string {
    return `KV_${this.name}`;
  }

  private subject(key: string): string {
    return `$KV.${this.name}.${key}`;
  }

  private async put(key: string, value: unknown, revision: number): Promise<number | undefined> {
    const h = natsHeaders();
    h.set('Nats-Expected-Last-Subject-Sequence', String(revision));
    const reply = await this.send(this.subject(key), encodeJson(value), h);
    if (reply.error?.err_code === WRONG_LAST_SEQUENCE) return undefined;
    this.check(reply, 'write');
    return reply.seq;
  }

  private async ensureStream(ttlMs: number): Promise<void> {
    const config = {
      name: this.stream,
      subjects: [`$KV.${this.name}.>`],
      max_msgs_per_subject: 1,
      max_age: ttlMs * 1_000_000,
      discard: 'new',
      storage: 'file',
      num_replicas: 1,
      allow_rollup_hdrs: true,
      deny_delete: true,
      allow_direct: true,
      duplicate_window: Math.min(ttlMs, 120_000) * 1_000_000,
    };
    let reply = await this.api(`$JS.API.STREAM.CREATE.${this.stream}`, config);
    if (reply.error?.err_code === STREAM_NAME_IN_USE)
      reply = await this.api(`$JS.API.STREAM.UPDATE.${this.stream}`, config);
    this.check(reply, 'open');
  }

  private api(subject: string, body: unknown): Promise<ApiReply> {
    return this.send(subject, encodeJson(body));
  }

  private async send(subject: string, data: Uint8Array, headers?: ReturnType<typeof natsHeaders>) {
    try {
      const msg = await this.connection.request(subject, data, { timeout: this.timeoutMs, headers });
      return decodeJson(msg.data) as ApiReply;
    } catch (err) {
      const cause = mapRequestError(subject, err, this.timeoutMs);
      throw new UnavailableError(`the key-value store '${this.name}' is unreachable: ${cause.message}`, {
        part: 'jetstream',
      });
    }
  }

  private check(reply: ApiReply, what: string): void {
    if (!reply.error) return;
    throw new UnavailableError(
      `could not ${what} the key-value store '${this.name}': ${reply.error.description ?? reply.error.code}`,
      { part: 'jetstream' },
    );
  }
}
