import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import { type FireOutcome, storedResult } from '../domain/fire-outcome';
import { isUniqueViolation, PAGE_SIZE, type TaskPage } from './repository.util';
import type { CronInput } from '../api/task-input';
import type { CronTaskRow } from '../api/task.views';

export interface CronClaim {
  task: CronTaskRow;
  fireId: string;
}

type CronFilter = { name?: string; owner?: string };

const cronWhere = (filter: CronFilter) => ({
  name: filter.name ? { contains: filter.name } : undefined,
  owner: filter.owner || undefined,
});

/** CronTask rows. */
@Injectable()
export class CronTaskRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async create(input: CronInput): Promise<CronTaskRow> {
    try {
      return await this.db.cronTask.create({ data: { id: randomUUID(), ...input } });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(`a cron named '${input.name}' already exists; pick another name`);
      throw err;
    }
  }

  findByName(name: string): Promise<CronTaskRow | null> {
    return this.db.cronTask.findUnique({ where: { name } });
  }

  findById(id: string): Promise<CronTaskRow | null> {
    return this.db.cronTask.findUnique({ where: { id } });
  }

  /** By the unique name, so pages neither skip nor repeat a task. */
  list(filter: CronFilter, page: Partial<TaskPage> = {}): Promise<CronTaskRow[]> {
    return this.db.cronTask.findMany({
      where: cronWhere(filter),
      orderBy: { name: 'asc' },
      skip: page.offset ?? 0,
      take: page.limit ?? PAGE_SIZE,
    });
  }

  count(filter: CronFilter): Promise<number> {
    return this.db.cronTask.count({ where: cronWhere(filter) });
  }

  countEnabled(owner: string): Promise<number> {
    return this.db.cronTask.count({ where: { owner, enabled: true } });
  }

  enabledPage(afterId: string): Promise<CronTaskRow[]> {
    return this.db.cronTask.findMany({
      where: { enabled: true, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: PAGE_SIZE,
    });
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
  async countRun(id: string, due: Date, now: Date): Promise<CronTaskRow | null> {
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
    return row ?? null;
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
  async setLastStatusIfLatest(id: string, startedAt: Date, status: string): Promise<void> {
    await this.db.cronTask.updateMany({
      where: { id, last_run_at: startedAt },
      data: { last_status: status },
    });
  }
}
