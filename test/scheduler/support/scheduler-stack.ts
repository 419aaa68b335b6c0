import { Queue } from 'bullmq';
import { Bus } from '@app/bus';
import {
  gatewayUrl,
  type NatsServer,
  type ServiceProcess,
  startNatsServer,
  startService,
} from '@app/testing';
import { QUEUE_NAME } from '../../../apps/scheduler/src/config/scheduler.config';
import {
  type CountingFunction,
  type CountingOptions,
  type DatabaseKind,
  migratedDatabase,
  serveCountingFunction,
  type TestDatabase,
  uniquePrefix,
} from '../../../apps/scheduler/src/testing/scheduler.harness';

/**
 * Built services as separate processes (`npm run build` first) on a NATS server of the test's
 * own, a fresh database and a BullMQ prefix of its own: nothing shared with other test runs.
 */
export interface SchedulerStack {
  nats: NatsServer;
  database: TestDatabase;
  bus: Bus;
  env: Record<string, string>;
  startScheduler(env?: Record<string, string>): Promise<ServiceProcess>;
  /** The gateway's base URL. */
  startGateway(): Promise<string>;
  countingFunction(options?: CountingOptions): Promise<CountingFunction>;
  close(): Promise<void>;
}

export async function schedulerStack(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): Promise<SchedulerStack> {
  const nats = await startNatsServer();
  const database = await migratedDatabase(kind);
  const bus = await Bus.connect({ url: nats.url, name: 'scheduler-stack' });
  const prefix = uniquePrefix();
  const processes: ServiceProcess[] = [];
  const functions: CountingFunction[] = [];
  const baseEnv = {
    DATABASE_URL: database.url,
    NATS_URL: nats.url,
    SCHEDULER_QUEUE_PREFIX: prefix,
    AUTH_ENABLED: 'false',
    ...env,
  };
  const start = async (name: 'scheduler' | 'gateway', extra: Record<string, string>) => {
    const service = await startService(name, { ...baseEnv, ...extra });
    processes.push(service);
    return service;
  };
  return {
    nats,
    database,
    bus,
    env: baseEnv,
    startScheduler: (extra = {}) => start('scheduler', extra),
    startGateway: async () => gatewayUrl(await start('gateway', { PORT: '0', HOST: '127.0.0.1' })),
    countingFunction: async (options) => {
      const fn = await serveCountingFunction(nats.url, options);
      functions.push(fn);
      return fn;
    },
    close: async () => {
      await Promise.all(processes.map((p) => p.kill()));
      const queue = new Queue(QUEUE_NAME, {
        connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
        prefix,
      });
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      for (const fn of functions) await fn.close();
      await bus.drain();
      await nats.stop();
      await database.drop();
    },
  };
}

/** Resolves at a wall-clock instant (a due time the test waits to pass), not after a guessed sleep. */
export async function until(instant: Date): Promise<void> {
  const wait = instant.getTime() - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
