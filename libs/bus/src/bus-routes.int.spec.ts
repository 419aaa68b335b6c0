import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsInt, IsString } from 'class-validator';
import { Bus } from '@app/bus';
import { type AppError, NO_BODY, replyOf, route } from '@app/contracts';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const unique = `test.routes.${process.pid}.${Date.now()}`;

class AddRequest {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class EchoRequest {
  @IsString() text!: string;
}

const add = route(`${unique}.add`, AddRequest, replyOf<{ sum: number }>(), {
  timeoutMs: 1_000,
  queue: 'adders',
});
const slow = route(`${unique}.slow`, EchoRequest, replyOf<string>(), { timeoutMs: 100 });
const untimed = route(`${unique}.untimed`, EchoRequest, replyOf<string>());
const who = route(`${unique}.who`, NO_BODY, replyOf<string>(), { timeoutMs: 150 });

describe('Bus routes (real NATS)', () => {
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    server = await Bus.connect({ url, name: 'bus-routes-server' });
    client = await Bus.connect({ url, name: 'bus-routes-client' });
  });
  afterAll(async () => {
    await server.drain();
    await client.drain();
  });

  it('hands the handler the request as it came, checked, and the caller its reply', async () => {
    const seen: unknown[] = [];
    server.serve(add, (request) => {
      seen.push(request);
      return { sum: request.a + request.b };
    });
    await server.flush();
    expect(await client.request(add, { a: 2, b: 3 })).toEqual({ sum: 5 });
    expect(seen[0]).toStrictEqual({ a: 2, b: 3 });
  });

  it('answers a request its DTO refuses with invalid_params, without calling the handler', async () => {
    let called = false;
    const strict = route(`${unique}.strict`, AddRequest, replyOf<number>(), { timeoutMs: 1_000 });
    server.serve(strict, () => (called = true) && 1);
    await server.flush();
    const err = (await client
      .request(strict, { a: 'two', b: 3 } as never)
      .catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('invalid_params');
    expect(err.message).toMatch(/a: /);
    expect(called).toBe(false);
  });

  it("waits the route's timeout by default, and the caller's deadline when it is sooner", async () => {
    server.serve(slow, ({ text }) => new Promise<string>((resolve) => setTimeout(() => resolve(text), 400)));
    server.serve(
      untimed,
      ({ text }) => new Promise<string>((resolve) => setTimeout(() => resolve(text), 400)),
    );
    await server.flush();
    const byRoute = (await client.request(slow, { text: 'x' }).catch((e: unknown) => e)) as AppError;
    expect(byRoute.code).toBe('timeout');
    expect(byRoute.message).toMatch(/within 100 ms/);
    expect(await client.request(slow, { text: 'late' }, { timeoutMs: 2_000 })).toBe('late');
    const started = Date.now();
    const byDeadline = (await client
      .request(untimed, { text: 'x' }, { deadline: Date.now() + 50 })
      .catch((e: unknown) => e)) as AppError;
    expect(byDeadline.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(350);
  });

  it("shares a route's requests among its queue group", async () => {
    const other = await Bus.connect({ url, name: 'bus-routes-other' });
    const counted = route(`${unique}.counted`, NO_BODY, replyOf<string>(), { timeoutMs: 1_000, queue: 'g' });
    server.serve(counted, () => 'a');
    other.serve(counted, () => 'b');
    await other.flush();
    await server.flush();
    const answers = await Promise.all(Array.from({ length: 30 }, () => client.request(counted)));
    expect(answers).toHaveLength(30);
    expect(new Set(answers)).toEqual(new Set(['a', 'b']));
    await other.drain();
  });

  it("gathers every responder's answer to a route without a body within its timeout", async () => {
    const other = await Bus.connect({ url, name: 'bus-routes-gather' });
    server.serve(who, (request) => `server:${String(request)}`);
    other.serve(who, (request) => `other:${String(request)}`);
    await Promise.all([server.flush(), other.flush()]);
    const started = Date.now();
    expect((await client.gather(who)).sort()).toEqual(['other:undefined', 'server:undefined']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await other.drain();
  });
});
