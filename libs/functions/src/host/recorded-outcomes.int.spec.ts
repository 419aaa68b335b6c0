import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { type FnExecProgress, type FunctionCallBatch, Routes, Subjects } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { expectEventually, type NatsServer, startNatsServer } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `k${Date.now().toString(36)}${process.pid}`;
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class SendParams {
  @Param({ description: 'what to send', required: true }) text!: string;
}

/** Side effects per text, counted across both replicas (they share this process). */
const effects = new Map<string, number>();
const sent = (text: string) => effects.get(text) ?? 0;
let gate: Promise<void> = Promise.resolve();
let openGate = () => undefined as void;

function fn(
  name: string,
  execute: AgentFunction<SendParams>['execute'],
  idempotent?: boolean,
): AgentFunction {
  const f: AgentFunction<SendParams> = {
    name: `${ns}_${name}`,
    description: `${name} for tests`,
    params: SendParams,
    idempotent,
    execute,
  };
  return f as AgentFunction;
}

const count = (text: string) => effects.set(text, sent(text) + 1);
const send = fn('send', async ({ text }) => {
  count(text);
  await gate;
  return { message: `sent ${text} #${sent(text)}` };
});
const fail = fn('fail', async ({ text }) => {
  count(text);
  throw new Error(`mailbox of ${text} is full`);
});
const hang = fn('hang', ({ text }, ctx) => {
  count(text);
  return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
});
const read = fn('read', async () => ({ message: 'read' }), true);

describe('keyed function calls (real NATS, JetStream KV)', () => {
  const buses: Bus[] = [];
  const hosts: FunctionHost[] = [];
  let client: FunctionClient;
  let clientBus: Bus;

  async function startHost(instance: string, natsUrl = url): Promise<FunctionHost> {
    const bus = await Bus.connect({ url: natsUrl, name: `outcomes-spec-${instance}` });
    const registry = new FunctionRegistry(5_000);
    registry.setGroup('builtin', [send, fail, hang, read]);
    const host = new FunctionHost({
      bus,
      registry,
      logger: quiet,
      provider: `spec-${ns}`,
      instance,
      concurrency: 4,
    });
    await host.start();
    buses.push(bus);
    hosts.push(host);
    return host;
  }

  /** Which replica answered each call, from the call records the replicas publish (read, not answered). */
  const answeredBy = new Map<string, string>();

  beforeAll(async () => {
    await startHost('a');
    await startHost('b');
    clientBus = await Bus.connect({ url, name: 'outcomes-spec-client' });
    buses.push(clientBus);
    clientBus.connection.subscribe(Subjects.fnCallsRecord, {
      callback: (_err, msg) => {
        for (const record of (msg.json() as FunctionCallBatch).calls)
          answeredBy.set(record.id, record.instance);
      },
    });
    client = new FunctionClient(clientBus);
  });

  afterAll(async () => {
    for (const host of hosts) await host.stop(500);
    for (const bus of buses) await bus.drain();
  });

  const call = (
    f: AgentFunction,
    text: string,
    key?: string,
    onAccepted?: (p: FnExecProgress) => void,
    callId?: string,
  ) =>
    client.call(
      f.name,
      { text },
      { timeoutMs: 3_000, idempotencyKey: key, onAccepted, caller: { principal: 'p1' }, callId },
    );
  const outcome = (reply: Awaited<ReturnType<typeof call>>) =>
    reply.status === 'success' ? reply.result : reply.error;

  it('runs a keyed call once whichever replica a repeat reaches, and answers every repeat alike', async () => {
    // a call this short is answered before its first heartbeat: the call records say who took it
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const first = await call(send, 'hello', `${ns}:r1:0:0`, undefined, ids[0]);
    expect(first).toMatchObject({ status: 'success', result: { message: 'sent hello #1' } });
    for (const id of ids.slice(1)) {
      const again = await call(send, 'hello', `${ns}:r1:0:0`, undefined, id);
      expect(outcome(again)).toEqual(outcome(first));
    }
    await expectEventually(() => expect(ids.filter((id) => answeredBy.has(id))).toHaveLength(ids.length));
    expect(new Set(ids.map((id) => answeredBy.get(id)))).toEqual(new Set(['a', 'b']));
    expect(sent('hello')).toBe(1);
  });

  it('lets a repeat that arrives while the first attempt runs wait for its outcome', async () => {
    gate = new Promise((resolve) => (openGate = resolve));
    const key = `${ns}:r2:0:0`;
    const accepted: string[] = [];
    const both = [
      call(send, 'concurrent', key),
      call(send, 'concurrent', key, (p) => accepted.push(p.instance)),
    ];
    await expectEventually(() => expect([sent('concurrent'), accepted.length]).toEqual([1, 1]));
    openGate();
    const [one, two] = await Promise.all(both);
    expect(one).toMatchObject({ status: 'success', result: { message: 'sent concurrent #1' } });
    expect(outcome(two)).toEqual(outcome(one));
    expect(sent('concurrent')).toBe(1);
  });

  it('runs calls with different keys, and calls without a key, every time', async () => {
    await call(send, 'distinct', `${ns}:r3:0:0`);
    await call(send, 'distinct', `${ns}:r3:0:1`);
    expect(sent('distinct')).toBe(2);
    await call(send, 'unkeyed');
    await call(send, 'unkeyed');
    expect(sent('unkeyed')).toBe(2);
  });

  it('records a function error and replays it without running the function again', async () => {
    const key = `${ns}:r4:0:0`;
    const first = await call(fail, 'bob', key);
    expect(first).toMatchObject({
      status: 'error',
      error: { code: 'function_error', message: 'mailbox of bob is full' },
    });
    const again = await call(fail, 'bob', key);
    expect(outcome(again)).toEqual(outcome(first));
    expect(sent('bob')).toBe(1);
  });

  it('records a timeout and replays it', async () => {
    const key = `${ns}:r5:0:0`;
    const first = await client.call(hang.name, { text: 'slow' }, { timeoutMs: 300, idempotencyKey: key });
    expect(first).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    const again = await client.call(hang.name, { text: 'slow' }, { timeoutMs: 3_000, idempotencyKey: key });
    expect(outcome(again)).toEqual(outcome(first));
    expect(sent('slow')).toBe(1);
  });

  it('refuses a key sent again with other parameters, and keeps principals apart', async () => {
    const key = `${ns}:r6:0:0`;
    await call(send, 'one', key);
    expect(await call(send, 'other', key)).toMatchObject({
      status: 'error',
      error: { code: 'idempotency_conflict' },
    });
    expect(sent('other')).toBe(0);
    const stranger = await client.call(
      send.name,
      { text: 'one' },
      { timeoutMs: 3_000, idempotencyKey: key, caller: { principal: 'p2' } },
    );
    expect(stranger).toMatchObject({ status: 'success', result: { message: 'sent one #2' } });
  });

  it('shows in the catalogue whether each function is safe to send again', async () => {
    const catalog = await clientBus.gather(Routes.fnCatalog);
    const mine = catalog.find((c) => c.provider === `spec-${ns}`)!;
    const flags = Object.fromEntries(mine.functions.map((f) => [f.name, f.idempotent]));
    expect(flags).toEqual({ [send.name]: false, [fail.name]: false, [hang.name]: false, [read.name]: true });
  });

  describe('without JetStream', () => {
    let bare: NatsServer;
    let bareClient: FunctionClient;

    beforeAll(async () => {
      bare = await startNatsServer({ jetstream: false });
      await startHost('bare', bare.url);
      const bus = await Bus.connect({ url: bare.url, name: 'outcomes-spec-bare-client' });
      buses.push(bus);
      bareClient = new FunctionClient(bus);
    });

    afterAll(async () => {
      await hosts.pop()?.stop(500);
      for (const bus of buses.splice(-2)) await bus.drain();
      await bare.stop();
    });

    it('refuses a keyed call as unavailable without running it; an unkeyed one still runs', async () => {
      const keyed = await bareClient.call(
        send.name,
        { text: 'guarded' },
        { timeoutMs: 3_000, idempotencyKey: `${ns}:r7` },
      );
      expect(keyed).toMatchObject({ status: 'error', error: { code: 'unavailable' } });
      expect(sent('guarded')).toBe(0);
      expect(await bareClient.call(send.name, { text: 'guarded' }, { timeoutMs: 3_000 })).toMatchObject({
        status: 'success',
      });
      expect(sent('guarded')).toBe(1);
    });
  });
});
