import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Logger } from '@app/observability';
import { HealthChecks } from './health-checks';

export const REDIS = Symbol('REDIS');

/**
 * Commands are not queued while disconnected (they fail at once, answered as 503), so the service
 * waits for the first connection before it serves; a Redis that is down at start delays it this long
 * at most, then the service starts anyway and answers 503 for what needs Redis until it is back.
 */
const READY_WAIT_MS = 5_000;

/** The service's Redis connection, once connected or after `waitMs` (whichever comes first). */
export async function connectRedis(url: string, waitMs = READY_WAIT_MS): Promise<Redis> {
  // Loaded here, not at import: services without Redis (the runner) skip its ~5 MB.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableOfflineQueue: false, lazyConnect: false });
  // until RedisModule listens: a start while Redis is down is said once, by the module
  const quiet = () => undefined;
  redis.on('error', quiet);
  await untilReady(redis, waitMs);
  redis.off('error', quiet);
  return redis;
}

function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.on('ready', done);
  });
}

/** One Redis connection per service (BullMQ opens its own), checked by /health. */
@Global()
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(HealthChecks) checks: HealthChecks,
    @Inject(Logger) logger: Logger,
  ) {
    checks.register('redis', async () => {
      await redis.ping();
    });
    // ioredis reconnects by itself and reports every failed attempt: one line when the connection
    // is lost and one when it is back (meanwhile what needs Redis answers 503, and /health says so).
    let lost = redis.status !== 'ready';
    redis.on('error', (err: Error) => {
      if (lost) return;
      lost = true;
      logger.warn('lost the connection to Redis; reconnecting', { error: err.message });
    });
    redis.on('ready', () => {
      if (!lost) return;
      lost = false;
      logger.info('connected to Redis again');
    });
  }

  static forRoot(url: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS,
          useFactory: () => connectRedis(url),
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
