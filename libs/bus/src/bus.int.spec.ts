import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createInbox, headers as natsHeaders } from '@nats-io/transport-node';
import { ACK_AFTER_MS, Bus, NatsUnavailableError, NoRespondersError, PROGRESS_HEADER } from '@app/bus';
import { IsInt } from 'class-validator';
import { AppError, InvalidParamsError, NO_BODY, replyOf, route } from '@app/contracts';
import { expectEventually } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const unique = `test.bus.${process.pid}.${Date.now()}`;

class EchoRequest {
  @IsInt() a!: number;
}

/** A route of this spec's own, without a body. */
const at = <R = unknown>(name: string, timeoutMs: number) =>
  route(`${unique}.${name}`, NO_BODY, replyOf<R>(), { timeoutMs });

describe('Bus (real NATS)', () => {
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    server = await Bus.connect({ url, name: 'bus-spec-server' });
    client = await Bus.connect({ url, name: 'bus-spec-client' });
  });
  afterAll(async () => {
    await server.drain();
    await client.drain();
  });

  it('round-trips a JSON request with headers', async () => {
    const echo = route(`${unique}.echo`, EchoRequest, replyOf<{ data: EchoRequest; trace?: string }>(), {
      timeoutMs: 1000,
    });
    server.serve(echo, (data, ctx) => ({ data, trace: ctx.headers.traceparent }));
    await server.flush();
    const reply = await client.request(echo, { a: 1 }, { headers: { traceparent: 't-1' } });
    expect(reply).toEqual({ data: { a: 1 }, trace: 't-1' });
  });

  it('carries a handler error back as the same AppError code and message', async () => {
    const fail = at('fail', 1000);
    server.serve(fail, () => {
      throw new InvalidParamsError([{ field: 'x', message: 'must be a number' }]);
    });
    await server.flush();
    const err = await client.request(fail).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_params');
    expect((err as AppError).message).toMatch(/x: must be a number/);
  });

  it('hides the internals of an unexpected handler error', async () => {
    const crash = at('crash', 1000);
    server.serve(crash, () => {
      throw new Error('db password is hunter2');
    });
    await server.flush();
    const err = (await client.request(crash).catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('internal');
    expect(err.message).not.toMatch(/hunter2/);
  });

  it("tells the service of an unexpected handler error whole, and not of the platform's own errors", async () => {
    const told: { message: string; subject: string }[] = [];
    const watched = await Bus.connect({
      url,
      name: 'bus-spec-watched',
      onUnexpectedError: (err, subject) => told.push({ message: (err as Error).message, subject }),
    });
    try {
      const crash = at('crash-told', 1000);
      const refused = at('refused-not-told', 1000);
      watched.serve(crash, () => {
        throw new Error('the driver said: boom');
      });
      watched.serve(refused, () => {
        throw new AppError('not_found', 'no such thing');
      });
      await watched.flush();
      expect(((await client.request(crash).catch((e: unknown) => e)) as AppError).code).toBe('internal');
      expect(((await client.request(refused).catch((e: unknown) => e)) as AppError).code).toBe('not_found');
      expect(told).toEqual([{ message: 'the driver said: boom', subject: crash.subject }]);
    } finally {
      await watched.drain();
    }
  });

  it('reports a subject nobody serves as unavailable, at once', async () => {
    const started = Date.now();
    const err = (await client.request(at('nobody', 5000)).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(NoRespondersError);
    expect(err).toMatchObject({ code: 'unavailable', details: { subject: `${unique}.nobody` } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('tells a closed connection apart, as NATS being unreachable, and knows it is not connected', async () => {
    const closed = await Bus.connect({ url, name: 'bus-spec-closed' });
    expect(closed.connected).toBe(true);
    await closed.drain();
    expect(closed.connected).toBe(false);
    const err = await closed.request(at('any', 500)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NatsUnavailableError);
    expect(err).toMatchObject({ code: 'unavailable', details: { part: 'nats' } });
  });

  it('reports a slow handler as a timeout', async () => {
    const slow = at('slow', 50);
    server.serve(slow, () => new Promise((resolve) => setTimeout(resolve, 500)));
    await server.flush();
    const err = (await client.request(slow).catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('timeout');
  });

  it('fails a request in flight when its connection closes, without waiting for its timeout', async () => {
    const closing = await Bus.connect({ url, name: 'bus-spec-closing' });
    const held = at('held', 60_000);
    server.serve(held, () => new Promise(() => undefined));
    await server.flush();
    const inFlight = closing.request(held).catch((e: unknown) => e);
    await closing.flush();
    await closing.connection.close();
    expect(await inFlight).toMatchObject({
      code: 'unavailable',
      message: `request on '${unique}.held' failed: connection closed`,
    });
  });

  it('lets a request in flight finish when draining, then takes no new ones', async () => {
    const draining = await Bus.connect({ url, name: 'bus-spec-draining' });
    const drain = at<string>('drain', 2_000);
    draining.serve(drain, () => new Promise((resolve) => setTimeout(() => resolve('done'), 300)), {
      queue: 'd',
    });
    await draining.flush();
    const inFlight = client.request(drain);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await draining.drain(2_000);
    expect(await inFlight).toBe('done');
    const after = (await client
      .request(drain, undefined, { timeoutMs: 1_000 })
      .catch((e: unknown) => e)) as AppError;
    expect(after.code).toBe('unavailable');
  });

  it('lets go of a handler subscription once it is closed (an executor serves two per run)', async () => {
    const perRun = await Bus.connect({ url, name: 'bus-spec-per-run' });
    const held = () => (perRun as unknown as { served: Set<unknown> }).served.size;
    const subscriptions = Array.from({ length: 20 }, (_, i) =>
      perRun.serve(at(`run.${i}`, 1_000), () => 'ok'),
    );
    expect(held()).toBe(20);
    subscriptions.forEach((s) => s.unsubscribe());
    await perRun.flush();
    await expectEventually(() => expect(held()).toBe(0));
    await perRun.drain();
  });

  it('balances a queue group and gathers answers from every responder', async () => {
    const other = await Bus.connect({ url, name: 'bus-spec-other' });
    const seen: string[] = [];
    const queued = at('q', 1000);
    const all = at<string>('all', 200);
    server.serve(queued, () => seen.push('a'), { queue: 'q' });
    other.serve(queued, () => seen.push('b'), { queue: 'q' });
    server.serve(all, () => 'a');
    other.serve(all, () => 'b');
    await Promise.all([server.flush(), other.flush()]);
    await Promise.all(Array.from({ length: 40 }, () => client.request(queued)));
    expect(seen).toHaveLength(40);
    expect(new Set(seen)).toEqual(new Set(['a', 'b']));
    expect((await client.gather(all)).sort()).toEqual(['a', 'b']);
    await other.drain();
  });
  it('acknowledges a request that asked for progress only when it is not answered within ACK_AFTER_MS', async () => {
    const quick = at('ack-quick', 2_000);
    const slow = at('ack-slow', 2_000);
    server.serve(quick, () => ({ done: true }));
    server.serve(
      slow,
      () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), ACK_AFTER_MS * 4)),
    );
    await server.flush();
    const raw = await connect({ servers: url.replace(/^nats:\/\//, ''), name: 'bus-spec-raw' });
    try {
      const seen = async (subject: string) => {
        const inbox = createInbox();
        const bodies: unknown[] = [];
        const sub = raw.subscribe(inbox, { callback: (_err, msg) => void bodies.push(msg.json()) });
        const headers = natsHeaders();
        headers.set(PROGRESS_HEADER, '1');
        raw.publish(subject, new TextEncoder().encode('{}'), { reply: inbox, headers });
        await expectEventually(() => expect(bodies.at(-1)).toMatchObject({ ok: true }));
        sub.unsubscribe();
        return bodies;
      };
      expect(await seen(quick.subject)).toEqual([{ ok: true, data: { done: true } }]);
      expect(await seen(slow.subject)).toEqual([{ taken: true }, { ok: true, data: { done: true } }]);
    } finally {
      await raw.close();
    }
  });
});
