import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HealthChecks } from './health-checks';

export const REDIS = Symbol('REDIS');

/** One Redis connection per service (BullMQ opens its own), checked by /health. */
@Global()
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(HealthChecks) checks: HealthChecks,
  ) {
    checks.register('redis', async () => {
      await redis.ping();
    });
  }

  static forRoot(url: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS,
          // Loaded here, not at import: services without Redis (the runner) skip its ~5 MB.
          useFactory: async () => {
            const { Redis } = await import('ioredis');
            return new Redis(url, {
              maxRetriesPerRequest: null,
              enableOfflineQueue: false,
              lazyConnect: false,
            });
          },
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
