import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus, ConnectionLostError, type ConnectionChange, NatsUnavailableError } from '@app/bus';
import { NO_BODY, replyOf, route } from '@app/contracts';
import { type NatsServer, startNatsServer } from '@app/testing';

const lookup = route('watch.read', NO_BODY, replyOf<number>(), { timeoutMs: 20_000, read: true });
const change = route('watch.read', NO_BODY, replyOf<number>(), { timeoutMs: 20_000 });
const slowChange = route('watch.slow', NO_BODY, replyOf<string>(), { timeoutMs: 30_000 });
const unserved = route('watch.read.never', NO_BODY, replyOf<number>(), { timeoutMs: 100 });

describe('Bus across a NATS restart (a nats-server of its own, stopped and started on the same port)', () => {
  let nats: NatsServer;
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    nats = await startNatsServer();
    server = await Bus.connect({ url: nats.url, name: 'watch-spec-server' });
    client = await Bus.connect({ url: nats.url, name: 'watch-spec-client' });
  });
  afterAll(async () => {
    await nats.start();
    await Promise.all([server.drain(), client.drain()]);
    await nats.stop();
  });

  it('fails a request in flight at once when the connection drops, tells listeners, and retries reads once back', async () => {
    const changes: ConnectionChange[] = [];
    client.onConnectionChange((change) => changes.push(change));
    let answer!: () => void;
    server.serve(slowChange, () => new Promise<string>((resolve) => (answer = () => resolve('late'))));
    let asked = 0;
    server.serve(lookup, () => ++asked);
    await server.flush();

    const slow = client.request(slowChange).catch((e: unknown) => e);
    const read = client.request(unserved).catch(() => 0);
    await read;
    const started = Date.now();
    await nats.stop();
    const failed = await slow;
    expect(failed).toBeInstanceOf(ConnectionLostError);
    expect(failed).toMatchObject({ code: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(client.connected).toBe(false);
    answer();

    // A change asked during the outage fails at once; a read is sent when the connection is back.
    await expect(client.request(change)).rejects.toBeInstanceOf(NatsUnavailableError);
    const retried = client.request(lookup);
    await nats.start();
    expect(await retried).toBeGreaterThanOrEqual(1);
    expect(await client.untilConnected(10_000)).toBe(true);
    expect(changes).toEqual(['disconnected', 'reconnected']);
  });
});
