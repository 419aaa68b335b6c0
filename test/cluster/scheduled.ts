import { expect } from 'vitest';
import { expectEventually } from '@app/testing';
import { api, sideEffects } from './cluster-load';
import type { Cluster } from './cluster.harness';

/** A cron ticking every second and delays due during a fault, both calling the counting function. */
export interface Scheduled {
  /** Resolves once the cron's last second and every delay have had their time (and a grace) to run. */
  stop(): Promise<void>;
  figures(): Promise<{
    fires: number;
    firesLost: number;
    firesDoubled: number;
    firesMissing: string[];
    delaysLost: number;
    delaysDoubled: number;
  }>;
}

/**
 * Creates the cron `<prefix>-tick`, ticking for `cronForMs` (its `until`: deleting a cron deletes
 * its fires' record), and `delays` delays due one a second from `firstDueInMs` (the fault's
 * window); the fires and calls are counted at the end from the database and the function's own
 * record of its calls.
 */
export async function schedule(
  cluster: Cluster,
  prefix: string,
  { delays, firstDueInMs, cronForMs }: { delays: number; firstDueInMs: number; cronForMs: number },
): Promise<Scheduled> {
  const cron = `${prefix}-tick`;
  const until = Date.now() + cronForMs;
  const created = await api(cluster, 'POST', '/api/v1/crons', {
    name: cron,
    cron_expr: '* * * * * *',
    until: new Date(until).toISOString(),
    function: cluster.fn.name,
    params: { tag: cron },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // its fires are counted after it is deleted
  const { id: cronId } = await cluster.db.cronTask.findUniqueOrThrow({ where: { name: cron } });
  const due = Date.now() + firstDueInMs;
  const delayNames = Array.from({ length: delays }, (_, i) => `${prefix}-delay-${i}`);
  for (const [i, name] of delayNames.entries()) {
    const res = await api(cluster, 'POST', '/api/v1/delays', {
      name,
      run_at: new Date(due + i * 1_000).toISOString(),
      function: cluster.fn.name,
      params: { tag: name },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const lastDue = Math.max(due + delays * 1_000, until);
  return {
    stop: async () => {
      await expectEventually(
        async () => {
          expect(Date.now()).toBeGreaterThan(lastDue);
          const pending = await cluster.db.delayTask.count({
            where: { name: { in: delayNames }, status: { in: ['pending', 'running'] } },
          });
          expect(pending).toBe(0);
          expect(await cluster.db.taskFire.count({ where: { task_id: cronId, status: 'running' } })).toBe(0);
        },
        { timeoutMs: Math.max(0, lastDue - Date.now()) + 60_000, intervalMs: 500 },
      );
    },
    figures: async () => {
      const fires = await cluster.db.taskFire.findMany({
        where: { task_kind: 'cron', task_id: cronId },
        orderBy: { scheduled_at: 'asc' },
      });
      const seconds = fires.map((f) => f.scheduled_at.getTime() / 1_000);
      // every second from the first fire to the cron's last before `until`
      // (the second at `until` itself left out: whether a fire due that close to it runs is a boundary)
      const lastSecond = Math.ceil(until / 1_000) - 2;
      const span = seconds.length ? Math.max(lastSecond, seconds.at(-1)!) - seconds[0] + 1 : 0;
      const completed = fires.filter((f) => f.status === 'completed').length;
      // a fire's call is keyed by the fire: one sent again after its provider never took it is one
      const calls = sideEffects(cluster, cron);
      const delayCalls = delayNames.map((name) => sideEffects(cluster, name));
      return {
        fires: fires.length,
        // a second with no fire, or a fire that did not complete, is a fire lost
        firesLost: span - new Set(seconds).size + (fires.length - completed),
        // which seconds (after the first fire) had none, or did not complete
        firesMissing: Array.from({ length: span }, (_, i) => seconds[0] + i)
          .map((second) => ({
            second,
            fire: fires.find((f) => f.scheduled_at.getTime() / 1_000 === second),
          }))
          .filter(({ fire }) => fire?.status !== 'completed')
          .map(
            ({ second, fire }) => `${second - seconds[0]}: ${fire ? `${fire.status} ${fire.error}` : 'none'}`,
          ),
        firesDoubled: Math.max(0, calls - fires.length),
        delaysLost: delayCalls.filter((n) => n === 0).length,
        delaysDoubled: delayCalls.filter((n) => n > 1).length,
      };
    },
  };
}
