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

const CALLS = 5;

describe('calls in flight on a function runner killed with -9 (built processes, a broker of the test own)', () => {
  const ns = uniqueNamespace('k');
  let nats: NatsServer;
  let runner: ServiceProcess;
  let bus: Bus;

  beforeAll(async () => {
    nats = await startNatsServer();
    runner = await startService('function-runner', {
      NATS_URL: nats.url,
      FUNCTIONS_DIR: pluginFolder(testPlugins(ns)),
      FUNCTIONS_SANDBOX_WORKERS: String(CALLS),
    });
    bus = await Bus.connect({ url: nats.url, name: 'runner-kill-spec' });
  });
  afterAll(async () => {
    await runner?.kill();
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
    const killedAt = Date.now();
    await runner.kill();

    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) {
      expect('error' in outcome && outcome.error).toBeInstanceOf(AppError);
      const error = (outcome as { error: AppError }).error;
      expect(error.code).toBe('unavailable');
      expect(error.details).toMatchObject({ part: 'function-runner', instance: takenBy[0].instance });
      expect(error.message).toMatch(/function-runner/);
    }
    const slowest = Math.max(...outcomes.map((o) => o.at)) - killedAt;
    console.info(`runner kill -9: ${CALLS} calls in flight failed within ${slowest} ms`);
    expect(slowest).toBeLessThan(5_000);
  }, 40_000);
});
