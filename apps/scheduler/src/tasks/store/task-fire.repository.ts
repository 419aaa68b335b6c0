import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FireStatus } from '@app/contracts';
import { DB, type Db, type Prisma } from '@app/persistence';
import type { InterruptedOutcome } from '../domain/fire-outcome';
import type { TaskFire, TaskKind } from '../domain/task';
import { isUniqueViolation, latenessMs, PAGE_SIZE } from './repository.util';
import { parseStored } from './stored-result';

/** TaskFire rows: one per due time of a task, whatever became of it. */
@Injectable()
export class TaskFireRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async recent(kind: TaskKind, taskId: string, limit: number): Promise<TaskFire[]> {
    const rows = await this.db.taskFire.findMany({
      where: { task_kind: kind, task_id: taskId },
      orderBy: { scheduled_at: 'desc' },
      take: limit,
    });
    return rows.map(toTaskFire);
  }

  /**
   * Writes the fire row of one due time: the claim. Its unique key (kind, task, due time) lets
   * one writer in, whichever replica, retry or duplicate trigger comes; null for the others.
   */
  async insertClaim(
    kind: TaskKind,
    taskId: string,
    scheduledAt: Date,
    status: 'running' | 'missed',
    now: Date,
  ): Promise<string | null> {
    const id = randomUUID();
    try {
      await this.db.taskFire.create({
        data: {
          id,
          task_kind: kind,
          task_id: taskId,
          scheduled_at: scheduledAt,
          status,
          started_at: now,
          finished_at: status === 'missed' ? now : null,
          lateness_ms: latenessMs(now, scheduledAt),
        },
      });
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  /**
   * Claims a due time recorded `missed` after all: its own trigger came (late) for it. One
   * conditional update, so one writer gets it, as `insertClaim`; null when it is not `missed`.
   */
  async reclaimMissed(kind: TaskKind, taskId: string, scheduledAt: Date, now: Date): Promise<string | null> {
    const [row] = await this.db.taskFire.updateManyAndReturn({
      where: { task_kind: kind, task_id: taskId, scheduled_at: scheduledAt, status: 'missed' },
      data: {
        status: 'running',
        error: null,
        started_at: now,
        finished_at: null,
        lateness_ms: latenessMs(now, scheduledAt),
      },
      select: { id: true },
    });
    return row?.id ?? null;
  }

  /** A reclaimed due time whose task turned out not to run: `missed` again, as it was recorded. */
  async missedAgain(id: string, now: Date): Promise<void> {
    await this.db.taskFire.updateMany({
      where: { id, status: 'running' },
      data: { status: 'missed', finished_at: now },
    });
  }

  /** Withdraws a claim whose task turned out not to run (cancelled, disabled meanwhile). */
  async remove(id: string): Promise<void> {
    await this.db.taskFire.deleteMany({ where: { id } });
  }

  /** Fires still `running` that started before the cutoff: nobody is running them any more. */
  async runningStartedBefore(cutoff: Date): Promise<TaskFire[]> {
    const rows = await this.db.taskFire.findMany({
      where: { status: 'running', started_at: { lt: cutoff } },
      orderBy: { started_at: 'asc' },
      take: PAGE_SIZE,
    });
    return rows.map(toTaskFire);
  }

  /** running → what became of the interrupted fire; false when it ended meanwhile. */
  async markInterrupted(id: string, outcome: InterruptedOutcome, now: Date): Promise<boolean> {
    const { count } = await this.db.taskFire.updateMany({
      where: { id, status: 'running' },
      data: { status: outcome.status, error: outcome.error, finished_at: now },
    });
    return count === 1;
  }

  /**
   * Records due times nobody fired as `missed`, skipping those already recorded (by anyone).
   * `note` goes on the oldest one, e.g. to say that older ticks were left out. Returns how many
   * were recorded here.
   */
  async recordMissed(
    kind: TaskKind,
    taskId: string,
    times: Date[],
    now: Date,
    note?: string,
  ): Promise<number> {
    if (times.length === 0) return 0;
    const existing = await this.db.taskFire.findMany({
      where: {
        task_kind: kind,
        task_id: taskId,
        scheduled_at: { gte: times[0], lte: times[times.length - 1] },
      },
      select: { scheduled_at: true },
    });
    const taken = new Set(existing.map((f) => f.scheduled_at.getTime()));
    const rows = times
      .filter((t) => !taken.has(t.getTime()))
      .map((t, i) => ({
        id: randomUUID(),
        task_kind: kind,
        task_id: taskId,
        scheduled_at: t,
        status: 'missed',
        error: i === 0 && note ? note : null,
        started_at: now,
        finished_at: now,
        lateness_ms: latenessMs(now, t),
      }));
    try {
      return (await this.db.taskFire.createMany({ data: rows })).count;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return this.insertEach(rows);
    }
  }

  /** A peer recorded some of them meanwhile: insert one by one, skipping theirs. */
  private async insertEach(rows: Prisma.TaskFireCreateManyInput[]): Promise<number> {
    let inserted = 0;
    for (const data of rows) {
      try {
        await this.db.taskFire.create({ data });
        inserted++;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    return inserted;
  }
}

function toTaskFire(row: Prisma.TaskFireModel): TaskFire {
  return {
    id: row.id,
    task_kind: row.task_kind as TaskKind,
    task_id: row.task_id,
    scheduled_at: row.scheduled_at,
    status: row.status as FireStatus,
    result: parseStored(row.result),
    error: row.error,
    lateness_ms: row.lateness_ms,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}
