import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus, KvBucket } from '@app/bus';
import { expectEventually } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const name = `spec_${Date.now().toString(36)}${process.pid}`;

describe('KvBucket (real NATS with JetStream)', () => {
  let bus: Bus;
  let bucket: KvBucket;

  beforeAll(async () => {
    bus = await Bus.connect({ url, name: 'kv-spec' });
    bucket = await KvBucket.open(bus.connection, name, { ttlMs: 60_000 });
  });
  afterAll(async () => {
    await bus.connection.request(`$JS.API.STREAM.DELETE.KV_${name}`, '', { timeout: 2_000 });
    await bus.drain();
  });

  it('creates a key for one writer only, and replaces it only at the revision it was read at', async () => {
    const [one, two] = await Promise.all([bucket.create('race.k', 'one'), bucket.create('race.k', 'two')]);
    expect([one, two].filter((r) => r !== undefined)).toHaveLength(1);
    const entry = (await bucket.get('race.k'))!;
    expect(entry.value).toBe(one === undefined ? 'two' : 'one');
    const next = await bucket.update('race.k', 'three', entry.revision);
    expect(next).toBeGreaterThan(entry.revision);
    expect(await bucket.update('race.k', 'stale', entry.revision)).toBeUndefined();
    expect(await bucket.get('race.k')).toEqual({ value: 'three', revision: next });
    expect(await bucket.get('absent.k')).toBeUndefined();
  });

  it('tells a watcher of each later write to its key', async () => {
    const seen: unknown[] = [];
    const stop = await bucket.watch('watched.k', (value) => seen.push(value));
    await bucket.create('watched.k', { n: 1 });
    await bucket.create('other.k', { n: 9 });
    await expectEventually(() => expect(seen).toEqual([{ n: 1 }]));
    stop();
  });

  it('opens an existing bucket again, taking a changed time to live', async () => {
    await expect(KvBucket.open(bus.connection, name, { ttlMs: 120_000 })).resolves.toBeInstanceOf(KvBucket);
    const info = await bus.connection.request(`$JS.API.STREAM.INFO.KV_${name}`, '', { timeout: 2_000 });
    expect((info.json() as { config: { max_age: number } }).config.max_age).toBe(120_000 * 1_000_000);
  });
});
