import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '@app/testing';
import { connectRedis } from './redis.module';

describe('the Redis connection at start (a redis-server of the test)', () => {
  const clients: { disconnect(): void }[] = [];
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('is ready before the service serves: no first request fails for a connection still opening', async () => {
    const redis = await startRedisServer();
    try {
      await redis.kill();
      const pending = connectRedis(redis.url, 20_000);
      await redis.start();
      const client = await pending;
      clients.push(client);
      expect(client.status).toBe('ready');
      expect(await client.ping()).toBe('PONG');
    } finally {
      await redis.stop();
    }
  });

  it('does not hold the start back for ever when Redis is down', async () => {
    const redis = await startRedisServer();
    await redis.kill();
    const client = await connectRedis(redis.url, 300);
    client.on('error', () => undefined);
    clients.push(client);
    expect(client.status).not.toBe('ready');
  });
});
