import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { type PingReply, Routes } from '@app/contracts';
import { HealthChecks } from './health-checks';
import { SERVICE_INFO, type ServiceInfo } from './tokens';

/** Answers `svc.ping.<service>` so the gateway's /health can see every service over the bus. */
@Injectable()
export class PingResponder implements OnApplicationBootstrap {
  constructor(
    private readonly bus: Bus,
    private readonly checks: HealthChecks,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.servicePing(this.info.name), () => this.ping());
  }

  async ping(): Promise<PingReply> {
    const states = this.checks.states();
    return {
      service: this.info.name,
      instance: this.info.instance,
      version: this.info.version,
      uptime_s: Math.round((Date.now() - this.info.startedAt) / 1000),
      checks: await this.checks.run(),
      ...(Object.keys(states).length > 0 ? { states } : {}),
    };
  }
}
