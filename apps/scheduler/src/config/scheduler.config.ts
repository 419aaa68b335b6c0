import type { PlatformConfig } from '@app/config';
import type { ServiceInfo } from '@app/runtime';

export const SCHEDULER_SETTINGS = Symbol('SCHEDULER_SETTINGS');

/** The scheduler's part of the configuration, in the units its code uses. */
export interface SchedulerSettings {
  redisUrl: string;
  queuePrefix: string;
  /** Names this instance's BullMQ worker, so peers can see who is alive. */
  instance: string;
  concurrency: number;
  maxTasksPerOwner: number;
  minCronIntervalMs: number;
  catchupWindowMs: number;
  fireTimeoutMs: number;
  misfireGraceMs: number;
  sweepIntervalMs: number;
  /** How long keyed calls of delay_* and cron_* keep their outcome (`functions.outcome_ttl`). */
  outcomeTtlMs: number;
  /** `security.auth`: off, a task made without a key (`anonymous`) acts with every scope, as its caller did. */
  authEnabled: boolean;
}

export const QUEUE_NAME = 'scheduler-tasks';

/** The provider name under which the scheduler serves delay_* and cron_* in the catalogue. */
export const FUNCTION_PROVIDER = 'scheduler';

export function schedulerSettings(
  config: PlatformConfig,
  info: Pick<ServiceInfo, 'instance'>,
): SchedulerSettings {
  const s = config.scheduler;
  return {
    redisUrl: config.redis.url,
    queuePrefix: s.queue_prefix,
    instance: info.instance,
    concurrency: s.concurrency,
    maxTasksPerOwner: s.max_tasks_per_owner,
    minCronIntervalMs: s.min_cron_interval,
    catchupWindowMs: s.catchup_window,
    fireTimeoutMs: s.fire_timeout,
    misfireGraceMs: s.misfire_grace,
    sweepIntervalMs: s.sweep_interval,
    outcomeTtlMs: config.functions.outcome_ttl,
    authEnabled: config.security.auth,
  };
}
