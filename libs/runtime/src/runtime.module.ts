import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Server } from 'node:http';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { Logger, stopTracing } from '@app/observability';
import { HealthChecks } from './health-checks';
import type { HttpIntake } from './http-intake';
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
export class RuntimeModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly servers: Server[] = [];
  private api?: { server: Server; intake: HttpIntake };

  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(Logger) private readonly logger: Logger,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
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

  /** An HTTP API whose requests need the bus: drained before it, on the same deadline. */
  drainOnShutdown(server: Server, intake: HttpIntake): void {
    this.api = { server, intake };
  }

  /** Before the modules close their databases: stop taking requests, let those in flight finish. */
  async beforeApplicationShutdown(): Promise<void> {
    const { timeout, drain_delay: delay } = this.config.shutdown;
    const deadline = Date.now() + Math.max(timeout, delay);
    if (this.api) {
      const open = this.api.intake.inFlight;
      if (open > 0 || delay > 0)
        this.logger.info(
          `stopping: new requests get 503 for at least ${delay} ms, ${open} in flight may finish`,
        );
      await this.api.intake.drain(this.api.server, timeout, delay);
    }
    await this.bus.drain(Math.max(1, deadline - Date.now()));
  }

  async onApplicationShutdown(): Promise<void> {
    for (const server of this.servers) server.close();
    await this.bus.drain();
    await stopTracing();
    this.logger.info('stopped');
  }
}
