import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { AppError, type FnExecProgress } from '@app/contracts';
import { CallNotTakenError, FunctionClient } from '@app/functions';
import {
  expectEventually,
  type NatsServer,
  type ServiceProcess,
  startNatsServer,
  startService,
} from '@app/testing';
import { pluginFolder, testPlugins, uniqueNamespace } from '../functions/plugins';

const CALLS = 5;

describe('calls in flight on a function runner killed with -9 (built processes, a broker of the test own)', () => {
  const ns = uniqueNamespace('k');
  let nats: NatsServer;
  let runner: ServiceProcess;
  let spare: ServiceProcess | undefined;
  let bus: Bus;
  const runnerEnv = () => ({
    NATS_URL: nats.url,
    FUNCTIONS_DIR: pluginFolder(testPlugins(ns)),
    FUNCTIONS_SANDBOX_WORKERS: String(CALLS),
  });

  beforeAll(async () => {
    nats = await startNatsServer();
    runner = await startService('function-runner', runnerEnv());
    bus = await Bus.connect({ url: nats.url, name: 'runner-kill-spec' });
  });
  afterAll(async () => {
    await runner?.kill();
    await spare?.stop();
    await bus?.drain();
    await nats?.stop();
  });

  it('fail with unavailable naming the provider soon after it dies, not at their 30 s timeout', async () => {
    const client = new FunctionClient(bus);
    const takenBy: FnExecProgress[] = [];
    const calls = Array.from({ length: CALLS }, () =>
      client
        .call(`${ns}_sleep`, { ms: 20_000 }, { timeoutMs: 30_000, onAccepted: (p) => takenBy.push(p) })
        .then(
          (reply) => ({ reply, at: Date.now() }),
          (error: unknown) => ({ error, at: Date.now() }),
        ),
    );
    await expectEventually(() => expect(takenBy).toHaveLength(CALLS));
    expect(new Set(takenBy.map((p) => p.provider))).toEqual(new Set(['function-runner']));
    // a second replica joins the queue group: new calls go on while the first dies with its calls
    spare = await startService('function-runner', runnerEnv());
    const killedAt = Date.now();
    await runner.kill();
    // Sent at once, a call may still go to the dead runner's subscription (NATS has not yet seen its
    // connection close): not taken, it says so within 3 s, and a caller of an idempotent function (this
    // no-op) sends it again; the spare replica serves it.
    const noop = async (attempt = 1): Promise<{ status: string; after: number }> => {
      try {
        const reply = await client.call(`${ns}_noop`, {}, { timeoutMs: 5_000 });
        return { status: reply.status, after: Date.now() - killedAt };
      } catch (err) {
        if (err instanceof CallNotTakenError && attempt < 3) return noop(attempt + 1);
        throw err;
      }
    };
    const servedAgain = noop();

    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) {
      expect('error' in outcome && outcome.error).toBeInstanceOf(AppError);
      const error = (outcome as { error: AppError }).error;
      expect(error.code).toBe('unavailable');
      expect(error.details).toMatchObject({ part: 'function-runner', instance: takenBy[0].instance });
      expect(error.message).toMatch(/function-runner/);
    }
    const slowest = Math.max(...outcomes.map((o) => o.at)) - killedAt;
    const served = await servedAgain;
    console.info(
      `runner kill -9: ${CALLS} calls in flight failed within ${slowest} ms; a new call served ${served.after} ms after the kill`,
    );
    expect(slowest).toBeLessThan(5_000);
    expect(served.status).toBe('success');
  }, 40_000);
});
