import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscardPolicy, RetentionPolicy, StorageType, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { Bus, EventLog } from '@app/bus';
import { busEvent, UnavailableError } from '@app/contracts';
import { expectEventually, type NatsServer, startNatsServer } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const tag = `${Date.now().toString(36)}${process.pid}`;
const options = (stream: string) => ({
  stream,
  subjects: [`spec.${stream}.*`],
  maxAgeMs: 60_000,
  maxBytes: 1_000_000,
  replicas: 1,
});

describe('EventLog (real NATS with JetStream)', () => {
  let bus: Bus;
  const streams: string[] = [];

  beforeAll(async () => {
    bus = await Bus.connect({ url, name: 'event-log-spec' });
  });
  afterAll(async () => {
    for (const stream of streams)
      await bus.connection
        .request(`$JS.API.STREAM.DELETE.${stream}`, '', { timeout: 2_000 })
        .catch(() => undefined);
    await bus.drain();
  });

  /** A stream and one of its subjects holding `stored` events already; `publish` adds more. */
  async function logWith(stream: string, stored: number) {
    streams.push(stream);
    const log = await EventLog.open(bus, options(stream));
    const event = busEvent<{ n: number }>(`spec.${stream}.run_1`);
    const publish = async (n: number) => {
      bus.publish(event, { n });
      bus.publish(busEvent<{ n: number }>(`spec.${stream}.run_2`), { n: -n });
      await bus.connection.flush();
    };
    for (let n = 1; n <= stored; n++) await publish(n);
    await expectEventually(async () =>
      expect(await log.last(event)).toMatchObject({ payload: { n: stored } }),
    );
    return { log, event, publish };
  }

  async function readsInOrder(stream: string, whileReading?: () => Promise<void>) {
    const { log, event, publish } = await logWith(stream, 3);
    const seen: number[] = [];
    const seqs: number[] = [];
    const stop = await log.read(event, 0, ({ payload, seq }) => {
      seen.push(payload.n);
      seqs.push(seq);
    });
    await expectEventually(() => expect(seen).toEqual([1, 2, 3]));
    for (let n = 4; n <= 6; n++) await publish(n);
    await expectEventually(() => expect(seen).toEqual([1, 2, 3, 4, 5, 6]));
    await whileReading?.();
    stop();
    await publish(7);
    await bus.connection.flush();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    // from a place: only what was stored after it
    const after: number[] = [];
    const again = await log.read(event, seqs[3], ({ payload }) => after.push(payload.n));
    await expectEventually(() => expect(after).toEqual([5, 6, 7]));
    again();
  }

  it('reads a subject from its first event, then each as it is stored, in order, each once', async () => {
    await readsInOrder(`EVLOG_${tag}_A`);
  });

  // A stream that takes no more consumers stands for one whose consumer cannot be created (with
  // nats-server 2.9, one placed on a replica that is down): its events are read by direct gets.
  it('reads the same without a consumer when none can be created', async () => {
    const stream = `EVLOG_${tag}_B`;
    const jsm = await jetstreamManager(bus.connection);
    // as EventLog.open would make it (so it opens it as it is), but for the limit
    const { maxAgeMs, maxBytes, replicas, subjects } = options(stream);
    await jsm.streams.add({
      name: stream,
      subjects,
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(maxAgeMs),
      max_bytes: maxBytes,
      num_replicas: replicas,
      allow_direct: true,
      max_consumers: 1,
    });
    await jsm.consumers.add(stream, { name: 'holder' });
    await readsInOrder(stream, async () => {
      const info = await jsm.streams.info(stream);
      expect(info.state.consumer_count).toBe(1); // the holder's alone: the reader has none
    });
  });

  it('fails a reader as unavailable when the stream cannot be read at all', async () => {
    const stream = `EVLOG_${tag}_C`;
    const { log, event } = await logWith(stream, 1);
    await bus.connection.request(`$JS.API.STREAM.DELETE.${stream}`, '', { timeout: 2_000 });
    await expect(log.read(event, 0, () => undefined)).rejects.toBeInstanceOf(UnavailableError);
  });
});

// A user that may not ask the stream's leader for a message stands for a stream that has no leader
// for a while (a replica's node went down, the stream elects anew): the last event comes by a
// direct get, which any replica answers.
describe('EventLog, the stream leader not answering (a NATS server of its own)', () => {
  let nats: NatsServer;
  let bus: Bus;

  beforeAll(async () => {
    nats = await startNatsServer({
      config: `authorization { users = [ { user: spec, password: spec, permissions: {
        publish: { allow: [">"], deny: ["$JS.API.STREAM.MSG.GET.>"] }, subscribe: [">"] } } ] }`,
    });
    bus = await Bus.connect({
      url: nats.url,
      name: 'event-log-leaderless-spec',
      user: 'spec',
      password: 'spec',
    });
  });
  afterAll(async () => {
    await bus?.drain();
    await nats?.stop();
  });

  it("finds a subject's last event by a direct get", async () => {
    const log = await EventLog.open(bus, options('EVLOG_LEADERLESS'));
    const event = busEvent<{ n: number }>('spec.EVLOG_LEADERLESS.run_1');
    expect(await log.last(event)).toBeUndefined();
    for (const n of [1, 2, 3]) bus.publish(event, { n });
    await bus.connection.flush();
    await expectEventually(async () =>
      expect(await log.last(event)).toMatchObject({ payload: { n: 3 }, seq: 3 }),
    );
  });
});
