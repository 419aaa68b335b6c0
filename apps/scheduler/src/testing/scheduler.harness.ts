import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Bus, type BusOptions } from '@app/bus';
import { loadConfig } from '@app/config';
import { type FnCatalogReply, type FnExecReply, type FnExecRequest, Routes } from '@app/contracts';
import { Logger } from '@app/observability';
import { DB, type Db, Migrator } from '@app/persistence';
import { RuntimeModule } from '@app/runtime';
import {
  freshPostgresDatabase,
  freshSqliteUrl,
  type NatsServer,
  REPO_ROOT,
  startNatsServer,
} from '@app/testing';
import { SchedulerModule } from '../scheduler.module';
import { TaskQueue } from '../tasks/firing/task-queue.service';

// Test helpers: real schedulers (Nest contexts) in the test process, on a NATS server of the test's
// own (other test runs' schedulers answer the same subjects in the same queue groups), the shared
// Redis under a BullMQ prefix of the test's own, and a migrated database; and a counting function
// served over the bus.

export const DATABASES = [
  { name: 'SQLite' as const, create: async () => ({ url: freshSqliteUrl(), drop: async () => undefined }) },
  { name: 'PostgreSQL' as const, create: freshPostgresDatabase },
];
export type DatabaseKind = (typeof DATABASES)[number];

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function migratedDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const { url, drop } = await kind.create();
  const migrator = await Migrator.open(url, REPO_ROOT);
  await migrator.deploy();
  await migrator.close();
  return { url, drop };
}

/** A BullMQ key prefix of the test's own: the Redis is shared. */
export function uniquePrefix(): string {
  return `ac-test-sched-${process.pid}-${randomUUID().slice(0, 8)}`;
}

export interface RunningScheduler {
  app: INestApplicationContext;
  db: Db;
  instance: string;
  get<T>(token: new (...args: never[]) => T): T;
  /** Stops as SIGTERM would: in-flight fires finish. */
  stop(): Promise<void>;
}

export interface SchedulerWorld {
  nats: NatsServer;
  database: TestDatabase;
  prefix: string;
  fn: CountingFunction;
  /** Starts a scheduler; `env` overrides configuration keys (SCHEDULER_FIRE_TIMEOUT, …). */
  start(env?: Record<string, string>): Promise<RunningScheduler>;
  /** Stops the schedulers, removes the BullMQ keys, drops the database. */
  close(): Promise<void>;
}

export async function schedulerWorld(
  kind: DatabaseKind,
  functionOptions: CountingOptions = {},
): Promise<SchedulerWorld> {
  const nats = await startNatsServer();
  const database = await migratedDatabase(kind);
  const prefix = uniquePrefix();
  const fn = await serveCountingFunction(nats.url, functionOptions);
  const started: RunningScheduler[] = [];
  return {
    nats,
    database,
    prefix,
    fn,
    start: async (env = {}) => {
      const scheduler = await startScheduler({ databaseUrl: database.url, natsUrl: nats.url, prefix, env });
      started.push(scheduler);
      return scheduler;
    },
    close: async () => {
      if (started[0])
        await started[0]
          .get(TaskQueue)
          .queue.obliterate({ force: true })
          .catch(() => undefined);
      for (const scheduler of started.splice(0)) await scheduler.stop();
      await fn.close();
      await nats.stop();
      await database.drop();
    },
  };
}

export async function startScheduler({
  databaseUrl,
  natsUrl,
  prefix,
  env,
}: {
  databaseUrl: string;
  natsUrl: string;
  prefix: string;
  env?: Record<string, string>;
}): Promise<RunningScheduler> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    SCHEDULER_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'error',
    ...env,
  });
  const logger = new Logger({
    service: 'scheduler',
    level: config.log.level,
    format: 'text',
    write: (l) => process.stderr.write(`${l}\n`),
  });
  const bus = await Bus.connect({ url: config.nats.url, name: 'scheduler-test' });
  const info = {
    name: 'scheduler' as const,
    instance: `test-${randomUUID().slice(0, 8)}`,
    version: '0.0.0',
    startedAt: Date.now(),
  };
  const runtime = RuntimeModule.forRoot({ info, config, logger, bus });
  const app = await NestFactory.createApplicationContext(SchedulerModule.register(runtime, config), {
    logger: false,
    abortOnError: false,
  });
  await app.init();
  return {
    app,
    instance: info.instance,
    db: app.get<Db>(DB),
    get: (token) => app.get(token),
    stop: () => app.close(),
  };
}

export interface CountingOptions {
  /** Every call fails with "disk full". */
  fail?: boolean;
  delayMs?: number;
  /** The provider it announces (`agents`: it stands for an agent served as a function). */
  provider?: string;
  /** The tokens each call reports, as an agent's run does. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** How it connects besides the URL (a NATS user, its inbox), as a deployed provider would. */
  connect?: Partial<BusOptions>;
}

export interface FunctionCall {
  params: Record<string, unknown>;
  caller: FnExecRequest['caller'];
  at: number;
  /** The call's idempotency key, when it had one: repeats with one key are one call's replays. */
  key?: string;
}

export interface CountingFunction {
  name: string;
  calls: FunctionCall[];
  /** Calls whose params have this `tag`. */
  callsTagged(tag: string): FunctionCall[];
  close(): Promise<void>;
}

/** A function that records its calls, served over the bus (`fn.exec.<name>` and `fn.catalog`). */
export async function serveCountingFunction(
  natsUrl: string,
  options: CountingOptions = {},
): Promise<CountingFunction> {
  const bus = await Bus.connect({ url: natsUrl, name: 'counting-function', ...options.connect });
  const name = `count_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const calls: FunctionCall[] = [];
  bus.serve(Routes.fnExec(name), async (request): Promise<FnExecReply> => {
    calls.push({
      params: request.params,
      caller: request.caller,
      at: Date.now(),
      key: request.idempotency_key,
    });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs).unref());
    if (options.fail)
      return { status: 'error', error: { code: 'function_error', message: 'disk full' }, elapsed_ms: 1 };
    const usage = options.usage ? { usage: options.usage } : {};
    return { status: 'success', result: { message: `counted ${calls.length}`, ...usage }, elapsed_ms: 1 };
  });
  bus.serve(Routes.fnCatalog, (): FnCatalogReply => ({
    provider: options.provider ?? 'test',
    instance: name,
    functions: [
      {
        name,
        provider: options.provider ?? 'test',
        description: 'counts its calls',
        parameters: {
          type: 'object',
          properties: { tag: { type: 'string', description: 'names the call for the test' } },
          required: [],
        },
      },
    ],
  }));
  await bus.flush();
  return {
    name,
    calls,
    callsTagged: (tag) => calls.filter((c) => c.params.tag === tag),
    close: () => bus.drain(),
  };
}

export function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
