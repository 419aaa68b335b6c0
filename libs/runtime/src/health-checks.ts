import { Injectable } from '@nestjs/common';

export type HealthCheck = () => Promise<void>;

/** Each module registers how to probe its dependencies; pings and /health report them. */
@Injectable()
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
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
