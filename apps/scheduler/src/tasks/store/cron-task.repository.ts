import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError, type FireStatus } from '@app/contracts';
import { DB, type Db, type Prisma } from '@app/persistence';
import type { FireOutcome } from '../domain/fire-outcome';
import type { CronClaim, CronTask, NewCronTask } from '../domain/task';
import { isUniqueViolation, PAGE_SIZE, type TaskPage, targetOf } from './repository.util';
import { storedResult } from './stored-result';

type CronFilter = { name?: string; owner?: string };

const cronWhere = (filter: CronFilter) => ({
  name: filter.name ? { contains: filter.name } : undefined,
  owner: filter.owner || undefined,
});

/** Recurring tasks, stored as CronTask rows. */
@Injectable()
export class CronTaskRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async create(input: NewCronTask): Promise<CronTask> {
    try {
      return toCronTask(await this.db.cronTask.create({ data: { id: randomUUID(), ...input } }));
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(`a cron named '${input.name}' already exists; pick another name`);
      throw err;
    }
  }

  async findByName(name: string): Promise<CronTask | null> {
    return toCronTaskOrNull(await this.db.cronTask.findUnique({ where: { name } }));
  }

  async findById(id: string): Promise<CronTask | null> {
    return toCronTaskOrNull(await this.db.cronTask.findUnique({ where: { id } }));
  }

  /** By the unique name, so pages neither skip nor repeat a task. */
  async list(filter: CronFilter, page: Partial<TaskPage> = {}): Promise<CronTask[]> {
    const rows = await this.db.cronTask.findMany({
      where: cronWhere(filter),
      orderBy: { name: 'asc' },
      skip: page.offset ?? 0,
      take: page.limit ?? PAGE_SIZE,
    });
    return rows.map(toCronTask);
  }

  count(filter: CronFilter): Promise<number> {
    return this.db.cronTask.count({ where: cronWhere(filter) });
  }

  countEnabled(owner: string): Promise<number> {
    return this.db.cronTask.count({ where: { owner, enabled: true } });
  }

  async enabledPage(afterId: string): Promise<CronTask[]> {
    const rows = await this.db.cronTask.findMany({
      where: { enabled: true, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: PAGE_SIZE,
    });
    return rows.map(toCronTask);
  }

  /** Deletes the task and its fire history. */
  async delete(id: string): Promise<void> {
    await this.db.$transaction([
      this.db.taskFire.deleteMany({ where: { task_kind: 'cron', task_id: id } }),
      this.db.cronTask.deleteMany({ where: { id } }),
    ]);
  }

  async disable(id: string): Promise<void> {
    await this.db.cronTask.updateMany({ where: { id, enabled: true }, data: { enabled: false } });
  }

  /**
   * Counts a run of the tick due at `due`, only while the task is enabled, under max_runs and
   * before until: one conditional update, so concurrent ticks cannot exceed max_runs. Returns the
   * task as counted, or null (no run left, disabled or deleted).
   */
  async countRun(id: string, due: Date, now: Date): Promise<CronTask | null> {
    const [row] = await this.db.cronTask.updateManyAndReturn({
      where: {
        id,
        enabled: true,
        AND: [
          { OR: [{ max_runs: 0 }, { run_count: { lt: this.db.cronTask.fields.max_runs } }] },
          { OR: [{ until: null }, { until: { gt: due } }] },
        ],
      },
      data: { run_count: { increment: 1 }, last_run_at: now },
    });
    return toCronTaskOrNull(row);
  }

  /**
   * Records the run's end and disables the task when it has no run left (max_runs reached, or no
   * due time before until). Returns whether it was disabled.
   */
  async finishTick(
    claim: CronClaim,
    outcome: FireOutcome,
    now: Date,
    next: Date | undefined,
  ): Promise<boolean> {
    const result = storedResult(outcome.result);
    const error = outcome.error ?? null;
    const { task } = claim;
    const exhausted =
      !next ||
      (task.max_runs > 0 && task.run_count >= task.max_runs) ||
      (task.until !== null && next >= task.until);
    // updateMany: the task may have been deleted (with its fires) while the tick ran.
    await this.db.$transaction([
      this.db.taskFire.updateMany({
        where: { id: claim.fireId },
        data: { status: outcome.status, result, error, finished_at: now },
      }),
      this.db.cronTask.updateMany({
        where: { id: task.id },
        data: { last_status: outcome.status, ...(exhausted ? { enabled: false } : {}) },
      }),
    ]);
    return exhausted;
  }

  /**
   * `next_run_at` is the watermark: every due time before it has a fire row. A claimed tick moves
   * it on only when it was the watermark itself, so a tick BullMQ skipped stays visible to the
   * sweep (which records it missed) instead of being stepped over.
   */
  async advanceWatermarkPast(id: string, due: Date, next: Date): Promise<void> {
    await this.db.cronTask.updateMany({
      where: { id, OR: [{ next_run_at: null }, { next_run_at: due }] },
      data: { next_run_at: next },
    });
  }

  /** Moves the watermark forward (never back), once every due time before `next` is recorded. */
  async advanceWatermark(id: string, next: Date): Promise<void> {
    await this.db.cronTask.updateMany({
      where: { id, OR: [{ next_run_at: null }, { next_run_at: { lt: next } }] },
      data: { next_run_at: next },
    });
  }

  /** The fire that ended this way was the task's latest: its status is the task's last status. */
  async setLastStatusIfLatest(id: string, startedAt: Date, status: FireStatus): Promise<void> {
    await this.db.cronTask.updateMany({
      where: { id, last_run_at: startedAt },
      data: { last_status: status },
    });
  }
}

function toCronTask(row: Prisma.CronTaskModel): CronTask {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    key_id: row.key_id,
    cron_expr: row.cron_expr,
    timezone: row.timezone,
    ...targetOf(row),
    enabled: row.enabled,
    until: row.until,
    max_runs: row.max_runs,
    run_count: row.run_count,
    last_run_at: row.last_run_at,
    last_status: row.last_status as FireStatus | null,
    next_run_at: row.next_run_at,
    created_at: row.created_at,
  };
}

function toCronTaskOrNull(row: Prisma.CronTaskModel | null | undefined): CronTask | null {
  return row ? toCronTask(row) : null;
}
