import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { type FnExecReply, Routes } from '@app/contracts';
import { expectEventually } from '@app/testing';
import {
  DATABASES,
  inMs,
  type RunningScheduler,
  type SchedulerWorld,
  schedulerWorld,
} from '../../testing/scheduler.harness';
import { DelayTasksService } from '../api/delay-tasks.service';
import { FireService } from './fire.service';

// A fire whose function nobody received (its provider not subscribed yet, NATS away) ran nothing:
// it is sent again while the due time is inside the task's catch-up window, not recorded failed.
describe.each(DATABASES)('fires that reached no provider on $name', (kind) => {
  let world: SchedulerWorld;
  let scheduler: RunningScheduler;
  let strict: RunningScheduler;
  let provider: Bus;

  beforeAll(async () => {
    world = await schedulerWorld(kind);
    scheduler = await world.start({ SCHEDULER_CATCHUP_WINDOW: '5m' });
    strict = await world.start({ SCHEDULER_CATCHUP_WINDOW: '0s' });
    const task = (name: string) => ({ name, run_at: inMs(60_000), function: world.fn.name, params: '{}' });
    await scheduler.get(DelayTasksService).create(task('late-provider'));
    await scheduler.get(DelayTasksService).create(task('not-taken'));
    await strict.get(DelayTasksService).create(task('no-window'));
    // the function's only provider is gone: calls to it find no responder
    await world.fn.close();
    provider = await Bus.connect({ url: world.nats.url, name: 'late-provider' });
  });
  afterAll(async () => {
    await provider.drain();
    await world.close();
  });

  it('sends the call again until its provider is back, and runs it once', async () => {
    const delays = scheduler.get(DelayTasksService);
    const { id, run_at } = await scheduler.db.delayTask.findUniqueOrThrow({
      where: { name: 'late-provider' },
    });
    const firing = scheduler.get(FireService).fireDelay(id, run_at.getTime());
    await expectEventually(async () =>
      expect(await scheduler.db.taskFire.count({ where: { task_id: id, status: 'running' } })).toBe(1),
    );
    let calls = 0;
    provider.serve(Routes.fnExec(world.fn.name), (): FnExecReply => {
      calls++;
      return { status: 'success', result: { message: 'late but done' }, elapsed_ms: 1 };
    });
    await provider.flush();
    await firing;
    const task = await delays.get('late-provider');
    expect(task.status).toBe('completed');
    expect(task.result).toEqual({ message: 'late but done' });
    expect(calls).toBe(1);
    await provider.drain();
    provider = await Bus.connect({ url: world.nats.url, name: 'late-provider' });
  });

  // Its provider's NATS server died with the delivery: the provider never took it. Sent again under
  // the fire's idempotency key (a provider that did get it and was only stalled would run it once).
  it('sends a call again that its provider never took, under the fire key, and runs it once', async () => {
    const { id, run_at } = await scheduler.db.delayTask.findUniqueOrThrow({ where: { name: 'not-taken' } });
    let delivered!: () => void;
    const lost = new Promise<void>((resolve) => (delivered = resolve));
    provider.connection.subscribe(Routes.fnExec(world.fn.name).subject, {
      max: 1,
      callback: () => delivered(),
    });
    await provider.flush();
    const firing = scheduler.get(FireService).fireDelay(id, run_at.getTime());
    await lost;
    const keys: (string | undefined)[] = [];
    provider.serve(Routes.fnExec(world.fn.name), (request): FnExecReply => {
      keys.push(request.idempotency_key);
      return { status: 'success', result: { message: 'taken the second time' }, elapsed_ms: 1 };
    });
    await provider.flush();
    await firing;
    const task = await scheduler.get(DelayTasksService).get('not-taken');
    expect(task).toMatchObject({ status: 'completed', result: { message: 'taken the second time' } });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^fire-/);
    await provider.drain();
    provider = await Bus.connect({ url: world.nats.url, name: 'late-provider' });
  });

  it('records the fire failed, naming why, once the due time is past its catch-up window', async () => {
    const delays = strict.get(DelayTasksService);
    const { id } = await strict.db.delayTask.findUniqueOrThrow({ where: { name: 'no-window' } });
    await strict.get(FireService).fireDelay(id, Date.now() - 1_000);
    const task = await delays.get('no-window');
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/not available.*no provider serves it/);
  });
});
