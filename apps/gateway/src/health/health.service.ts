import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { type HealthView, type PingReply, Routes, SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { HealthChecks } from '@app/runtime';

export type State = 'ok' | 'down';

export interface HealthReport extends HealthView {
  /** The parts that are down, so a 503 names them. */
  failing: string[];
}

/** The gateway's own checks take no longer than a service's ping. */
const OWN_CHECKS_TIMEOUT_MS = Routes.servicePing('gateway').timeoutMs;

/** Finds each service's state by pinging it over NATS; the gateway's own dependencies directly. */
@Injectable()
export class HealthService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(HealthChecks) private readonly checks: HealthChecks,
  ) {}

  async report(): Promise<HealthReport> {
    const natsUp = !this.bus.connection.isClosed() && (await this.natsRoundTrip());
    const [own, ...pings] = await Promise.all([
      this.checks.run(OWN_CHECKS_TIMEOUT_MS),
      ...SERVICE_NAMES.filter((s) => s !== 'gateway').map((s) => this.ping(s)),
    ]);
    const services = {
      gateway: 'ok',
      ...Object.fromEntries(pings.map(([name, reply]) => [name, reply ? 'ok' : 'down'])),
    } as Record<ServiceName, State>;
    const llmState = pings.find(([name]) => name === 'agent-executor')?.[1]?.states?.llm;
    const llm = llmState?.state === 'ok' ? 'ok' : llmState ? 'not configured' : 'unknown';
    const parts: Record<string, State> = {
      nats: natsUp ? 'ok' : 'down',
      database: own.database ?? 'down',
      redis: own.redis ?? 'down',
    };
    const failing = [
      ...Object.entries(services)
        .filter(([, s]) => s === 'down')
        .map(([n]) => n),
      ...Object.entries(parts)
        .filter(([, s]) => s === 'down')
        .map(([n]) => n),
      // Chat cannot be served without a model; an executor that is down is named above already.
      ...(llm === 'not configured'
        ? [`llm (not configured: ${llmState?.reason ?? 'see the executor log'})`]
        : []),
    ];
    return {
      status: failing.length ? 'degraded' : 'ok',
      services,
      nats: parts.nats,
      database: parts.database,
      redis: parts.redis,
      llm,
      failing,
    };
  }

  /** The service's ping reply, or undefined when it is down. */
  private async ping(service: ServiceName): Promise<[ServiceName, PingReply | undefined]> {
    try {
      return [service, await this.bus.request(Routes.servicePing(service))];
    } catch {
      return [service, undefined];
    }
  }

  private async natsRoundTrip(): Promise<boolean> {
    try {
      await this.bus.connection.rtt();
      return true;
    } catch {
      return false;
    }
  }
}
