import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually, type RedisServer, startRedisServer } from '@app/testing';
import { DATABASES, inMs, type SchedulerWorld, schedulerWorld } from '../../testing/scheduler.harness';
import { DelayTasksService } from '../api/delay-tasks.service';

// The database is the truth and Redis only the trigger: a Redis that restarts empty loses every
// trigger, and the scheduler must re-arm them as soon as it is back, not at the next sweep.
describe('a Redis restart without persistence (real redis-server of the test, SQLite)', () => {
  let redis: RedisServer;
  let world: SchedulerWorld;
  let delays: DelayTasksService;

  beforeAll(async () => {
    redis = await startRedisServer();
    world = await schedulerWorld(DATABASES[0]);
    // The sweep is an hour away: only the reconnect can re-arm in time.
    const scheduler = await world.start({ REDIS_URL: redis.url, SCHEDULER_SWEEP_INTERVAL: '1h' });
    delays = scheduler.get(DelayTasksService);
  });
  afterAll(async () => {
    await world?.close();
    await redis?.stop();
  });

  it('fires a delay due after Redis came back on time, once', async () => {
    const created = await delays.create({
      name: 'after-restart',
      run_at: inMs(3_000),
      function: world.fn.name,
    });
    await redis.kill();
    await redis.start();
    await expectEventually(async () => expect((await delays.get('after-restart')).status).toBe('completed'), {
      timeoutMs: 8_000,
    });
    expect(world.fn.calls).toHaveLength(1);
    const task = await delays.get('after-restart');
    const late = new Date(task.executed_at!).getTime() - new Date(created.run_at).getTime();
    expect(late).toBeLessThan(1_000);
  });
});
