import { type InjectionToken, Injectable, type Provider } from '@nestjs/common';
import type { ServiceState } from '@app/contracts';

export type HealthCheck = () => Promise<void>;

/** Each module registers how to probe its dependencies; pings and /health report them. */
@Injectable()
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();
  private readonly describers = new Map<string, () => ServiceState>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** A state the service knows of itself (its configuration), reported with every ping. */
  describe(name: string, read: () => ServiceState): void {
    this.describers.set(name, read);
  }

  states(): Record<string, ServiceState> {
    return Object.fromEntries([...this.describers].map(([name, read]) => [name, read()]));
  }

  async run(timeoutMs = 1_000): Promise<Record<string, 'ok' | 'down'>> {
    const entries = await Promise.all(
      [...this.checks].map(
        async ([name, check]) => [name, (await withTimeout(check(), timeoutMs)) ? 'ok' : 'down'] as const,
      ),
    );
    return Object.fromEntries(entries);
  }
}

/** Registers the `check()` of `target` (a provider of a library that knows nothing of health checks) as `name`. */
export function healthCheckOf(name: string, target: InjectionToken<{ check(): Promise<void> }>): Provider {
  return {
    provide: Symbol(`health check ${name}`),
    useFactory: (checks: HealthChecks, checked: { check(): Promise<void> }) =>
      checks.register(name, () => checked.check()),
    inject: [HealthChecks, target],
  };
}

async function withTimeout(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
