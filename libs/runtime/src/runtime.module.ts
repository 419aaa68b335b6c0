import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Server } from 'node:http';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { Logger, stopTracing } from '@app/observability';
import { HealthChecks } from './health-checks';
import { PingResponder } from './ping.responder';
import { PLATFORM_CONFIG, SERVICE_INFO, type ServiceInfo } from './tokens';

export interface RuntimeOptions {
  info: ServiceInfo;
  config: PlatformConfig;
  logger: Logger;
  bus: Bus;
}

/** What every service shares: its config, logger, bus connection, health checks and ping. */
@Global()
@Module({})
export class RuntimeModule implements OnApplicationShutdown {
  private readonly servers: Server[] = [];

  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  static forRoot(options: RuntimeOptions): DynamicModule {
    return {
      module: RuntimeModule,
      providers: [
        { provide: PLATFORM_CONFIG, useValue: options.config },
        { provide: SERVICE_INFO, useValue: options.info },
        { provide: Logger, useValue: options.logger },
        { provide: Bus, useValue: options.bus },
        HealthChecks,
        PingResponder,
      ],
      exports: [PLATFORM_CONFIG, SERVICE_INFO, Logger, Bus, HealthChecks],
    };
  }

  closeOnShutdown(server: Server): void {
    this.servers.push(server);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const server of this.servers) server.close();
    await this.bus.drain();
    await stopTracing();
    this.logger.info('stopped');
  }
}
