import { Inject, Injectable } from '@nestjs/common';
import { type JobsOptions, Queue } from 'bullmq';
import { QUEUE_NAME, SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';

/**
 * What a trigger carries: the task and what never changes about it, so that firing starts with
 * the claim. A cron tick's due time comes from BullMQ (`prevMillis`).
 */
export type FireJobData =
  | { kind: 'delay'; task_id: string; run_at: number }
  | { kind: 'cron'; task_id: string; cron_expr: string; timezone: string };

/** Retries cover the scheduler's own failures (database down); the claim keeps a retry from re-running a task. */
export const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
} satisfies JobsOptions;

export function bullConnection(settings: SchedulerSettings) {
  return { url: settings.redisUrl, maxRetriesPerRequest: null };
}

type DelayTrigger = { id: string; run_at: Date };

export const delayJobId = (taskId: string) => `delay-${taskId}`;
export const cronSchedulerId = (taskId: string) => `cron-${taskId}`;
/** The id BullMQ gives a job scheduler's job for one due time. */
export const cronTickJobId = (taskId: string, dueMs: number) => `repeat:${cronSchedulerId(taskId)}:${dueMs}`;

/**
 * The trigger side: Redis, through BullMQ, says when; the database says what and whether. Arming
 * is idempotent (a delay's job id and a cron's scheduler id derive from the task id).
 */
@Injectable()
export class TaskQueue {
  readonly queue: Queue<FireJobData>;

  constructor(@Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings) {
    this.queue = new Queue<FireJobData>(QUEUE_NAME, {
      connection: bullConnection(settings),
      prefix: settings.queuePrefix,
    });
  }

  /** Calls `listener` each time the queue's Redis connection is ready again after a loss. */
  async onReconnect(listener: () => void): Promise<void> {
    const client = await this.queue.backend.client;
    client.on('ready', listener);
  }

  async armDelay(task: DelayTrigger): Promise<void> {
    await this.armDelays([task]);
  }

  /** A delay whose job already exists keeps it (same job id): arming twice is harmless. */
  async armDelays(tasks: DelayTrigger[]): Promise<void> {
    if (tasks.length === 0) return;
    const now = Date.now();
    await this.queue.addBulk(
      tasks.map((task) => ({
        name: 'delay',
        data: { kind: 'delay' as const, task_id: task.id, run_at: task.run_at.getTime() },
        opts: { ...JOB_OPTIONS, jobId: delayJobId(task.id), delay: Math.max(0, task.run_at.getTime() - now) },
      })),
    );
  }

  async disarmDelay(taskId: string): Promise<void> {
    await this.queue.remove(delayJobId(taskId)).catch(() => 0);
  }

  /** Returns the first due time BullMQ will fire (ms), when it says. */
  async armCron(task: {
    id: string;
    cron_expr: string;
    timezone: string;
    until: Date | null;
  }): Promise<number | undefined> {
    const job = await this.queue.upsertJobScheduler(
      cronSchedulerId(task.id),
      { pattern: task.cron_expr, tz: task.timezone, endDate: task.until ?? undefined },
      {
        name: 'cron',
        data: { kind: 'cron', task_id: task.id, cron_expr: task.cron_expr, timezone: task.timezone },
        opts: JOB_OPTIONS,
      },
    );
    return job?.opts.prevMillis;
  }

  async disarmCron(taskId: string): Promise<void> {
    await this.queue.removeJobScheduler(cronSchedulerId(taskId));
  }

  /** Moves a delayed job to the front now; false when it is no longer delayed (taken, removed). */
  async promote(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    return job.promote().then(
      () => true,
      () => false,
    );
  }

  /** Ids of the cron schedulers Redis knows, to find the ones it lost. */
  async armedCronIds(): Promise<Set<string>> {
    const schedulers = await this.queue.getJobSchedulers(0, -1);
    return new Set(schedulers.map((s) => s.key.replace(/^cron-/, '')));
  }

  /** Other scheduler instances whose worker is connected to this queue right now. */
  async peerWorkers(): Promise<number> {
    const workers = await this.queue.getWorkers();
    const names = new Set(workers.map((w) => String(w.rawname ?? w.name)));
    return [...names].filter((name) => !name.endsWith(`:w:${this.settings.instance}`)).length;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
