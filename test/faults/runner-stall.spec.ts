import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { AppError, type FnExecProgress } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import {
  expectEventually,
  type NatsServer,
  type ServiceProcess,
  startNatsServer,
  startService,
} from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from '../functions/plugins';

/** A runner frozen as by an event loop blocked for good: SIGSTOP (SIGCONT in the end). */
describe('calls to a function runner whose event loop is blocked (built process, a broker of the test own)', () => {
  const ns = uniqueNamespace('s');
  let nats: NatsServer;
  let runner: ServiceProcess;
  let bus: Bus;
  const freeze = () => process.kill(runner.child.pid!, 'SIGSTOP');
  const thaw = () => process.kill(runner.child.pid!, 'SIGCONT');

  beforeAll(async () => {
    nats = await startNatsServer();
    runner = await startService('function-runner', {
      NATS_URL: nats.url,
      FUNCTIONS_DIR: pluginFolder(testPlugins(ns)),
    });
    bus = await Bus.connect({ url: nats.url, name: 'runner-stall-spec' });
  });
  afterAll(async () => {
    if (runner) thaw();
    await runner?.stop();
    await bus?.drain();
    await nats?.stop();
  });

  const outcomeOf = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (error: unknown) => error as AppError,
    );

  it('fail with unavailable, not at their 30 s timeout: a call in flight, and a new one it never takes', async () => {
    const client = new FunctionClient(bus);
    const takenBy: FnExecProgress[] = [];
    // Long enough to be running when the runner is frozen (right after it is taken); frozen, the
    // runner answers nothing however long it is. Short: stopping the runner in the end waits for it.
    const inFlight = outcomeOf(
      client.call(`${ns}_sleep`, { ms: 5_000 }, { timeoutMs: 30_000, onAccepted: (p) => takenBy.push(p) }),
    );
    await expectEventually(() => expect(takenBy).toHaveLength(1));
    freeze();
    const sentToTheStalled = outcomeOf(client.call(`${ns}_noop`, {}, { timeoutMs: 30_000 }));

    const [held, neverTaken] = await Promise.all([inFlight, sentToTheStalled]);
    expect(held).toBeInstanceOf(AppError);
    expect(held).toMatchObject({ code: 'unavailable', details: { instance: takenBy[0].instance } });
    expect(neverTaken).toBeInstanceOf(AppError);
    expect(neverTaken).toMatchObject({ code: 'unavailable', details: { function: `${ns}_noop` } });
    expect(neverTaken?.message).toMatch(/did not take the call/);

    thaw();
    await expectEventually(
      async () => expect((await client.call(`${ns}_noop`, {}, { timeoutMs: 5_000 })).status).toBe('success'),
      { timeoutMs: 15_000 },
    );
  }, 60_000);
});
