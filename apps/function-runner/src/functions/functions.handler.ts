import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { FunctionHost, FunctionRegistry } from '@app/functions';
import { Logger, Redactor } from '@app/observability';
import { PLATFORM_CONFIG, SERVICE_INFO, type ServiceInfo } from '@app/runtime';

const MAX_GRACE_MS = 25_000;

/**
 * NATS in: serves the runner's registry (`fn.exec.<name>` in the runner's queue group,
 * `fn.catalog`, `fn.cancel`, `fn.announce`). On shutdown it stops taking calls and lets running
 * ones finish before the bus drains.
 */
@Injectable()
export class FunctionsHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly host: FunctionHost;
  private readonly graceMs: number;

  constructor(
    @Inject(Bus) bus: Bus,
    @Inject(FunctionRegistry) registry: FunctionRegistry,
    @Inject(Logger) logger: Logger,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    const redactor = new Redactor(config.secrets);
    this.graceMs = Math.min(config.functions.default_timeout, MAX_GRACE_MS);
    this.host = new FunctionHost({
      bus,
      registry,
      logger,
      provider: info.name,
      instance: info.instance,
      concurrency: config.functions.concurrency,
      redact: (text) => redactor.redact(text),
      outcomeTtlMs: config.functions.outcome_ttl,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.host.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.host.stop(this.graceMs);
  }
}
