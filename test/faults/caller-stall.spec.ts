import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { FN_SILENCE_MS } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import {
  expectEventually,
  type NatsServer,
  type ServiceProcess,
  startNatsServer,
  startService,
} from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from '../functions/plugins';

/** Holds this process's event loop, as a caller starved of CPU (or in a long synchronous stretch) is held. */
function holdTheEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: no timer runs, the socket is not read
  }
}

/**
 * The caller (an executor on a loaded machine) is the one held, not the runner: the runner takes
 * and answers its calls at once, and they must succeed, not fail as if the runner had stalled.
 */
describe('calls whose caller is held past FN_SILENCE_MS (built runner, a broker of the test own)', () => {
  const ns = uniqueNamespace('h');
  let nats: NatsServer;
  let runner: ServiceProcess;
  let bus: Bus;
  let client: FunctionClient;

  beforeAll(async () => {
    nats = await startNatsServer();
    runner = await startService('function-runner', {
      NATS_URL: nats.url,
      FUNCTIONS_DIR: pluginFolder(testPlugins(ns)),
    });
    bus = await Bus.connect({ url: nats.url, name: 'caller-stall-spec' });
    client = new FunctionClient(bus);
    // the first call starts a sandbox process: not part of what is tested
    await client.call(`${ns}_noop`, {}, { timeoutMs: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await runner?.stop();
    await bus?.drain();
    await nats?.stop();
  });

  const statusOf = (call: Promise<{ status: string }>) =>
    call.then(
      (reply) => reply.status,
      (err: Error) => err.message,
    );
  const calls = (n: number) =>
    Array.from({ length: n }, () => statusOf(client.call(`${ns}_noop`, {}, { timeoutMs: 30_000 })));

  it('succeed when the runner answered during the hold (its replies wait in the socket)', async () => {
    const answered = calls(5);
    // the requests are out; the hold then begins from a socket read, as a caller's does
    await bus.flush();
    holdTheEventLoop(FN_SILENCE_MS + 1_000);
    expect(await Promise.all(answered)).toEqual(Array(5).fill('success'));
  }, 60_000);

  it('succeed when the hold came before the requests left this process', async () => {
    const sentLate = calls(5);
    holdTheEventLoop(FN_SILENCE_MS + 1_000);
    expect(await Promise.all(sentLate)).toEqual(Array(5).fill('success'));
  }, 60_000);

  it('succeed when the hold came while the runner was running them (after it had spoken)', async () => {
    const heardFrom: unknown[] = [];
    const running = Array.from({ length: 3 }, () =>
      statusOf(
        client.call(
          `${ns}_sleep`,
          { ms: 2_000 },
          { timeoutMs: 30_000, onAccepted: (p) => heardFrom.push(p) },
        ),
      ),
    );
    // taken and heard from: from now on the runner must speak again within FN_SILENCE_MS
    await expectEventually(() => expect(heardFrom).toHaveLength(3));
    // held from a socket read, as a caller busy with what it read is: its timers run first after
    await bus.flush();
    holdTheEventLoop(FN_SILENCE_MS + 1_000);
    expect(await Promise.all(running)).toEqual(Array(3).fill('success'));
  }, 60_000);
});
