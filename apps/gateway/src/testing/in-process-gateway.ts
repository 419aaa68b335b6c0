import { METHODS } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Bus } from '@app/bus';
import { loadConfig } from '@app/config';
import { Logger } from '@app/observability';
import { RuntimeModule } from '@app/runtime';
import { migratedSqliteUrl } from '@app/testing';
import { configureHttp } from '../common/http-app';
import { GatewayModule } from '../gateway.module';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

/**
 * The whole gateway in this process (real NATS, Redis, a fresh SQLite), so its router can be read;
 * `env` as the service's environment (NATS and Redis at their defaults unless given).
 */
export async function startGateway(env: Record<string, string>) {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: await migratedSqliteUrl(),
    ...env,
  });
  const bus = await Bus.connect({ url: config.nats.url, name: 'in-process-gateway' });
  const info = {
    name: 'gateway' as const,
    instance: `in-process-${process.pid}`,
    version: '0',
    startedAt: Date.now(),
  };
  const runtime = RuntimeModule.forRoot({ info, config, logger: quiet, bus });
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register(runtime, config), {
    logger: quiet,
    bodyParser: false,
  });
  const [base] = await configureHttp(app, config);
  return { app, base, close: async () => (await app.close(), await bus.drain()) };
}

/**
 * Every route the express router serves, as `METHOD /path/{param}`; a handler mounted on a path
 * with `app.use` (a sub-router, an SDK's transport) as `* /path`.
 */
export function servedRoutes(app: NestExpressApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> }; rawPath?: unknown }[] };
  };
  const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
  return express.router.stack.flatMap(({ route, rawPath }) => {
    // an @All() handler is every method of node:http to express
    const all = route && Object.keys(route.methods).length === METHODS.length;
    if (route && all) return [`* ${openapiPath(route.path)}`];
    if (route) return Object.keys(route.methods).map((m) => `${m.toUpperCase()} ${openapiPath(route.path)}`);
    const mounts = [rawPath].flat().filter((p): p is string => typeof p === 'string' && p !== '/');
    return mounts.map((path) => `* ${openapiPath(path)}`);
  });
}
