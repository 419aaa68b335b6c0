import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SCOPES } from '@app/contracts';
import { CallNotTakenError, FunctionClient } from '@app/functions';
import { KeyBudgetRepository } from '@app/limits';
import {
  DATABASES,
  inMs,
  type RunningScheduler,
  type SchedulerWorld,
  schedulerWorld,
} from '../../testing/scheduler.harness';
import { CronTasksService } from '../api/cron-tasks.service';
import { DelayTasksService } from '../api/delay-tasks.service';
import { FireService } from './fire.service';

// A fire acts for the API key that created its task, with that key's scopes as they are when it
// fires: what the key may do then, no more, and nothing once the key is revoked or deleted.
describe.each(DATABASES)('a fire acts for its task’s key on $name', (kind) => {
  let world: SchedulerWorld;
  let scheduler: RunningScheduler;

  beforeAll(async () => {
    world = await schedulerWorld(kind);
    scheduler = await world.start();
  });
  afterAll(() => world.close());

  const addKey = (id: string, scopes: readonly string[]) =>
    scheduler.db.apiKey.create({
      data: { id, name: id, principal: 'ops', prefix: id, hash: `hash-${id}`, scopes: scopes.join(' ') },
    });

  async function fire(name: string, keyId: string | undefined, fn = 'delay_list') {
    await scheduler.get(DelayTasksService).create({
      name,
      run_at: inMs(60_000),
      function: fn,
      params: fn === 'delay_list' ? '{}' : `{"tag":"${name}"}`,
      owner: 'ops',
      key_id: keyId,
    });
    const { id, run_at } = await scheduler.db.delayTask.findUniqueOrThrow({ where: { name } });
    await scheduler.get(FireService).fireDelay(id, run_at.getTime());
    return scheduler.get(DelayTasksService).get(name);
  }

  it('an admin key’s delay of delay_list runs with the admin’s scopes', async () => {
    await addKey('key_admin', SCOPES);
    const done = await fire('list-as-admin', 'key_admin');
    expect(done).toMatchObject({ status: 'completed' });
  });

  it('a key without the function’s scope fails as that key would', async () => {
    await addKey('key_chat', ['chat']);
    const done = await fire('list-as-chat', 'key_chat');
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/needs the 'tasks:read' scope/);
  });

  it('scopes are read at fire time: a key whose scopes grew since creation has them', async () => {
    await addKey('key_grown', ['chat']);
    await scheduler.db.apiKey.update({ where: { id: 'key_grown' }, data: { scopes: 'chat tasks:read' } });
    expect(await fire('list-grown', 'key_grown')).toMatchObject({ status: 'completed' });
  });

  it('a revoked or deleted key’s task is refused, saying why, and its function is not called', async () => {
    await addKey('key_gone', SCOPES);
    await addKey('key_deleted', SCOPES);
    const revokedTask = scheduler.get(DelayTasksService).create({
      name: 'revoked-fn',
      run_at: inMs(60_000),
      function: world.fn.name,
      params: '{"tag":"revoked-fn"}',
      key_id: 'key_gone',
    });
    await revokedTask;
    await scheduler.db.apiKey.update({ where: { id: 'key_gone' }, data: { revoked_at: new Date() } });
    const { id, run_at } = await scheduler.db.delayTask.findUniqueOrThrow({ where: { name: 'revoked-fn' } });
    await scheduler.get(FireService).fireDelay(id, run_at.getTime());
    const revoked = await scheduler.get(DelayTasksService).get('revoked-fn');
    expect(revoked).toMatchObject({ status: 'refused' });
    expect(revoked.error).toMatch(/API key 'key_gone' that created the task was revoked/);
    expect(world.fn.callsTagged('revoked-fn')).toHaveLength(0);

    await scheduler.db.apiKey.delete({ where: { id: 'key_deleted' } });
    const deleted = await fire('list-deleted', 'key_deleted');
    expect(deleted).toMatchObject({ status: 'refused' });
    expect(deleted.error).toMatch(/API key 'key_deleted' that created the task no longer exists/);
    const fires = await scheduler.db.taskFire.findMany({
      where: {
        task_id: (await scheduler.db.delayTask.findUniqueOrThrow({ where: { name: 'list-deleted' } })).id,
      },
    });
    expect(fires.map((f) => f.status)).toEqual(['refused']);
  });

  it('a cron whose key was revoked stops: its tick is refused, recorded, and the cron disabled', async () => {
    await addKey('key_cron', SCOPES);
    const crons = scheduler.get(CronTasksService);
    await crons.create({
      name: 'cron-revoked',
      cron_expr: '0 0 1 1 *',
      function: world.fn.name,
      params: '{"tag":"cron-revoked"}',
      key_id: 'key_cron',
    });
    await scheduler.db.apiKey.update({ where: { id: 'key_cron' }, data: { revoked_at: new Date() } });
    const { id } = await scheduler.db.cronTask.findUniqueOrThrow({ where: { name: 'cron-revoked' } });
    const due = Math.floor(Date.now() / 1_000) * 1_000 - 2_000;
    await scheduler.get(FireService).fireCron(id, due, { expr: '0 0 1 1 *', timezone: 'UTC' });
    const cron = await crons.get('cron-revoked');
    expect(cron).toMatchObject({ enabled: false });
    expect(cron.recent_fires).toHaveLength(1);
    expect(cron.recent_fires[0]).toMatchObject({ status: 'refused' });
    expect(cron.recent_fires[0].error).toMatch(/API key 'key_cron' that created the task was revoked/);
    expect(world.fn.callsTagged('cron-revoked')).toHaveLength(0);
  });

  it('a key read cut by a database shutting down is read again: the fire runs once, not failed', async () => {
    await addKey('key_restart', SCOPES);
    // What Prisma throws for a query on a connection PostgreSQL terminated (a restart's fast shutdown).
    const cut = Object.assign(new Error('Database error. Code: `57P01`. Message: `terminating connection`'), {
      code: 'P2039',
      meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P01' } } },
    });
    const keys = scheduler.get(KeyBudgetRepository);
    const standing = vi.spyOn(keys, 'standing').mockRejectedValueOnce(cut);
    try {
      const done = await fire('fn-through-restart', 'key_restart', world.fn.name);
      expect(done).toMatchObject({ status: 'completed' });
      expect(standing).toHaveBeenCalledTimes(2);
      expect(world.fn.callsTagged('fn-through-restart')).toHaveLength(1);
    } finally {
      standing.mockRestore();
    }
  });

  it('a call its provider never took is sent again under the fire’s key: the fire completes', async () => {
    await addKey('key_not_taken', SCOPES);
    const client = scheduler.get(FunctionClient);
    const call = client.call.bind(client);
    // The first sending is delivered and runs, but its provider's word that it took it is lost (its
    // NATS server died with it): a keyed resend is answered from the recorded outcome by a real host.
    const sent = vi.spyOn(client, 'call').mockImplementationOnce(async (name, params, options) => {
      await call(name, params, options);
      throw new CallNotTakenError(name);
    });
    try {
      const done = await fire('fn-not-taken', 'key_not_taken', world.fn.name);
      expect(done).toMatchObject({ status: 'completed' });
      expect(sent).toHaveBeenCalledTimes(2);
      const deliveries = world.fn.callsTagged('fn-not-taken');
      expect(deliveries).toHaveLength(2);
      expect(deliveries[0].key).toMatch(/^fire-/);
      expect(deliveries[1].key).toBe(deliveries[0].key);
    } finally {
      sent.mockRestore();
    }
  });

  it('a fire that fails on something unexpected names no internals in its record', async () => {
    await addKey('key_broken', SCOPES);
    const keys = scheduler.get(KeyBudgetRepository);
    const standing = vi
      .spyOn(keys, 'standing')
      .mockRejectedValueOnce(
        new Error('Invalid `this.db.apiKey.findUnique()` invocation in /srv/dist/key.js:52'),
      );
    try {
      const done = await fire('fn-broken', 'key_broken', world.fn.name);
      expect(done.status).toBe('failed');
      expect(done.error).toBe(`function '${world.fn.name}' could not be run: internal error`);
      expect(world.fn.callsTagged('fn-broken')).toHaveLength(0);
    } finally {
      standing.mockRestore();
    }
  });

  it('a task made with authentication off acts with every scope while it stays off', async () => {
    const open = await world.start({ AUTH_ENABLED: 'false' });
    await open.get(DelayTasksService).create({
      name: 'open-list',
      run_at: inMs(60_000),
      function: 'delay_list',
      params: '{}',
      key_id: 'anonymous',
    });
    const { id, run_at } = await open.db.delayTask.findUniqueOrThrow({ where: { name: 'open-list' } });
    await open.get(FireService).fireDelay(id, run_at.getTime());
    expect(await open.get(DelayTasksService).get('open-list')).toMatchObject({ status: 'completed' });
    await open.stop();
  });
});
