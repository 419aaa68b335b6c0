import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Bus } from '@app/bus';
import { type ServiceName, Subjects } from '@app/contracts';
import { ConfigError, loadConfig, maskUrl, type PlatformConfig } from '@app/config';
import { activeTraceFields, collectProcessMetrics, Logger, Redactor, startTracing } from '@app/observability';
import { HealthChecks } from './health-checks';
import { HttpIntake } from './http-intake';
import { startProbeServer } from './probe.server';
import { RuntimeModule } from './runtime.module';
import type { ServiceInfo } from './tokens';
import { platformVersion } from './version';

export interface BootOptions {
  service: ServiceName;
  /** Builds the app's root module around the shared runtime module. */
  module: (runtime: DynamicModule, config: PlatformConfig) => DynamicModule | (new () => unknown);
  /** HTTP services listen on the configured port; the others are application contexts. */
  http?: (app: NestExpressApplication, config: PlatformConfig) => Promise<string[]>;
}

/**
 * Starts one service: validates config (exit 1 naming the key), connects NATS (exit 1 saying how
 * to start it), builds the Nest app, logs one line with version and endpoints, drains on SIGTERM.
 */
export async function bootService(options: BootOptions): Promise<INestApplicationContext> {
  const config = loadOrExit();
  const version = platformVersion();
  const tracing = await startTracing(
    options.service,
    version,
    config.tracing.otlp_traces_endpoint ?? config.tracing.otlp_endpoint,
  );
  collectProcessMetrics(options.service);
  const redactor = new Redactor(config.secrets);
  const logger = new Logger({
    service: options.service,
    level: config.log.level,
    format: config.log.format,
    redactor,
    context: activeTraceFields,
  });
  const bus = await connectOrExit(options.service, config, logger);
  const info: ServiceInfo = {
    name: options.service,
    instance: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    version,
    startedAt: Date.now(),
  };
  try {
    const app = await createApp(
      options,
      RuntimeModule.forRoot({ info, config, logger, bus }),
      config,
      logger.child({ nest: true }),
    );
    const endpoints = [`nats ${maskUrl(config.nats.url)}`];
    if (options.http)
      endpoints.unshift(...(await serveHttp(app as NestExpressApplication, options.http, config)));
    else await app.init();
    if (!options.http && config.metrics.port !== undefined) {
      const probes = await startProbeServer(config.metrics.port, app.get(HealthChecks));
      app.get(RuntimeModule).closeOnShutdown(probes);
      const { port } = probes.address() as { port: number };
      endpoints.unshift(`probes http://0.0.0.0:${port} (/health /ready /metrics)`);
    }
    logger.info(`${options.service} ${info.version} ready`, { instance: info.instance, endpoints, tracing });
    return app;
  } catch (err) {
    logger.error(`${options.service} failed to start: ${(err as Error)?.message ?? String(err)}`);
    await bus.drain().catch(() => undefined);
    process.exit(1);
  }
}

/** The intake counter goes first, so a stop can refuse new requests and wait for open ones. */
async function serveHttp(
  app: NestExpressApplication,
  http: NonNullable<BootOptions['http']>,
  config: PlatformConfig,
) {
  const intake = new HttpIntake();
  app.use(intake.handle);
  const endpoints = await http(app, config);
  app.get(RuntimeModule).drainOnShutdown(app.getHttpServer(), intake);
  return endpoints;
}

async function createApp(
  options: BootOptions,
  runtime: DynamicModule,
  config: PlatformConfig,
  logger: Logger,
) {
  const root = options.module(runtime, config);
  const app = options.http
    ? await NestFactory.create<NestExpressApplication>(root, {
        logger,
        bodyParser: false,
        abortOnError: false,
      })
    : await NestFactory.createApplicationContext(root, { logger, abortOnError: false });
  app.enableShutdownHooks();
  return app;
}

function loadOrExit(): PlatformConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function connectOrExit(service: ServiceName, config: PlatformConfig, logger: Logger): Promise<Bus> {
  try {
    return await Bus.connect({
      url: config.nats.url,
      name: service,
      inboxPrefix: Subjects.inbox(service),
      user: config.nats.user,
      password: config.nats.password,
      credsFile: config.nats.creds_file,
      jetstreamReplicas: config.nats.jetstream_replicas,
      // its caller is answered `internal error`: here it is seen whole
      onUnexpectedError: (err, subject) => logger.error('a request failed unexpectedly', { subject, err }),
      tls: {
        caFile: config.nats.tls_ca_file,
        certFile: config.nats.tls_cert_file,
        keyFile: config.nats.tls_key_file,
      },
    });
  } catch (err) {
    logger.error(
      `cannot reach NATS at ${maskUrl(config.nats.url)} (NATS_URL): ${(err as Error).message}; start it with 'docker compose up -d nats' or set NATS_URL`,
    );
    process.exit(1);
  }
}
