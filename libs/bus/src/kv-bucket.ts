import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type KV, KvWatchInclude, Kvm } from '@nats-io/kv';
import { UnavailableError } from '@app/contracts';
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
  /** Servers that keep a copy (`Bus.jetstreamReplicas`); 1 by default. */
  replicas?: number;
}

const WRONG_LAST_SEQUENCE: number[] = [
  JetStreamApiCodes.StreamWrongLastSequence,
  JetStreamApiCodes.StreamWrongLastSequenceUnknown,
];

/**
 * A JetStream key-value bucket (the official `@nats-io/kv` client) holding JSON values, with the
 * two conditional writes callers need — create-if-absent and compare-and-set, where exactly one
 * writer wins a race — answering `undefined` to the loser instead of throwing. Every failure to
 * reach JetStream is `unavailable`.
 */
export class KvBucket {
  private constructor(
    private readonly kv: KV,
    readonly name: string,
  ) {}

  /** Opens the bucket, creating it (or updating its TTL and replicas) as needed. */
  static async open(connection: NatsConnection, name: string, options: KvBucketOptions): Promise<KvBucket> {
    const timeout = options.timeoutMs ?? 2_000;
    const replicas = options.replicas ?? 1;
    const kv = await unavailableOnFailure(name, 'open', async () => {
      const kv = await new Kvm(jetstream(connection, { timeout, checkAPI: false })).create(name, {
        ttl: options.ttlMs,
        history: 1,
        replicas,
        timeout,
      });
      const { ttl, streamInfo } = await kv.status();
      if (ttl !== options.ttlMs || streamInfo.config.num_replicas !== replicas) {
        // An existing bucket keeps its old settings when opened: a changed TTL or replica count
        // (a single server grown into a cluster) is applied here.
        const jsm = await jetstreamManager(connection, { timeout, checkAPI: false });
        await jsm.streams.update(streamInfo.config.name, {
          max_age: nanos(options.ttlMs),
          num_replicas: replicas,
        });
      }
      return kv;
    });
    return new KvBucket(kv, name);
  }

  /** Writes `value` if the key has none; its revision, or undefined when another writer was first. */
  create(key: string, value: unknown): Promise<number | undefined> {
    return this.conditional('write', () => this.kv.create(key, encodeJson(value)));
  }

  /** Replaces the value at `revision`; undefined when it changed since. */
  update(key: string, value: unknown, revision: number): Promise<number | undefined> {
    return this.conditional('write', () => this.kv.update(key, encodeJson(value), revision));
  }

  async get(key: string): Promise<KvEntry | undefined> {
    const entry = await unavailableOnFailure(this.name, 'read', () => this.kv.get(key));
    if (!entry || entry.operation !== 'PUT') return undefined;
    return { value: decodeJson(entry.value), revision: entry.revision };
  }

  /**
   * Calls `onValue` with each value written to the key from now on. Read the key after watching,
   * so that a write between the two is not missed.
   */
  async watch(key: string, onValue: (value: unknown) => void): Promise<() => void> {
    const updates = await unavailableOnFailure(this.name, 'watch', () =>
      this.kv.watch({ key, include: KvWatchInclude.UpdatesOnly }),
    );
    void (async () => {
      for await (const entry of updates) if (entry.operation === 'PUT') onValue(decodeJson(entry.value));
    })().catch(() => undefined);
    return () => updates.stop();
  }

  private async conditional(what: string, write: () => Promise<number>): Promise<number | undefined> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof JetStreamApiError && WRONG_LAST_SEQUENCE.includes(err.code)) return undefined;
      throw unavailable(this.name, what, err);
    }
  }
}

async function unavailableOnFailure<T>(name: string, what: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    throw unavailable(name, what, err);
  }
}

function unavailable(name: string, what: string, err: unknown): UnavailableError {
  const cause = err instanceof Error ? err.message : String(err);
  return new UnavailableError(`could not ${what} the key-value store '${name}': ${cause}`, {
    part: 'jetstream',
  });
}
