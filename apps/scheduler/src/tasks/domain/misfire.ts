import type { DelayTask } from './task';

export type OverdueDelay = Pick<DelayTask, 'run_at' | 'misfire_policy' | 'catchup_window_ms'>;

/**
 * What becomes of a pending delay that was due while no scheduler could fire it: `missed` (the
 * default), unless its policy is `run_once` and it is still inside its catch-up window.
 */
export function overdueFate(task: OverdueDelay, now: Date): 'run' | 'missed' {
  const late = now.getTime() - task.run_at.getTime();
  return task.misfire_policy === 'run_once' && late <= task.catchup_window_ms ? 'run' : 'missed';
}

/**
 * The instant before which a due time counts as overdue at start-up. Alone, everything before now
 * was missed; with live peers, a due time inside the grace is theirs to fire.
 */
export function overdueCutoff(now: Date, peersAlive: boolean, graceMs: number): Date {
  return peersAlive ? new Date(now.getTime() - graceMs) : now;
}
