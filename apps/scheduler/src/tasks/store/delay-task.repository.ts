import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError, type DelayStatus, type MisfirePolicy } from '@app/contracts';
import { DB, type Db, type Prisma } from '@app/persistence';
import type { FireOutcome, InterruptedOutcome } from '../domain/fire-outcome';
import type { DelayClaim, DelayTask, NewDelayTask } from '../domain/task';
import { isUniqueViolation, PAGE_SIZE, type TaskPage, targetOf } from './repository.util';
import { parseStored, storedResult } from './stored-result';

type DelayFilter = { status?: DelayStatus; owner?: string };

const delayWhere = (filter: DelayFilter) => ({ status: filter.status, owner: filter.owner || undefined });

/** One-off tasks, stored as DelayTask rows. */
@Injectable()
export class DelayTaskRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async create(input: NewDelayTask, catchupWindowMs: number): Promise<DelayTask> {
    try {
      const row = await this.db.delayTask.create({
        data: { id: randomUUID(), ...input, catchup_window_ms: catchupWindowMs },
      });
      return toDelayTask(row);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(`a delay named '${input.name}' already exists; pick another name`);
      throw err;
    }
  }

  /** Removes a task whose trigger could not be armed, so that creating it can simply be retried. */
  async remove(id: string): Promise<void> {
    await this.db.delayTask.deleteMany({ where: { id } });
  }

  async findByName(name: string): Promise<DelayTask | null> {
    return toDelayTaskOrNull(await this.db.delayTask.findUnique({ where: { name } }));
  }

  /** In a stable order (run_at, then the unique name), so pages neither skip nor repeat a task. */
  async list(filter: DelayFilter, page: Partial<TaskPage> = {}): Promise<DelayTask[]> {
    const rows = await this.db.delayTask.findMany({
      where: delayWhere(filter),
      orderBy: [{ run_at: 'asc' }, { name: 'asc' }],
      skip: page.offset ?? 0,
      take: page.limit ?? PAGE_SIZE,
    });
    return rows.map(toDelayTask);
  }

  count(filter: DelayFilter): Promise<number> {
    return this.db.delayTask.count({ where: delayWhere(filter) });
  }

  countPending(owner: string): Promise<number> {
    return this.db.delayTask.count({ where: { owner, status: 'pending' } });
  }

  /** pending → cancelled; false when it was no longer pending. */
  async cancel(id: string): Promise<boolean> {
    const { count } = await this.db.delayTask.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'cancelled' },
    });
    return count === 1;
  }

  /** One page of pending tasks, in id order, due before `before` when given. */
  async pendingPage(afterId: string, before?: Date): Promise<DelayTask[]> {
    const rows = await this.db.delayTask.findMany({
      where: { status: 'pending', id: { gt: afterId }, run_at: before ? { lt: before } : undefined },
      orderBy: { id: 'asc' },
      take: PAGE_SIZE,
    });
    return rows.map(toDelayTask);
  }

  async findById(id: string): Promise<DelayTask | null> {
    return toDelayTaskOrNull(await this.db.delayTask.findUnique({ where: { id } }));
  }

  /** pending → running (or missed), atomically; the task as it now is, or null when it was not pending. */
  async leavePending(id: string, status: 'running' | 'missed', now: Date): Promise<DelayTask | null> {
    const executed_at = status === 'running' ? now : undefined;
    const [row] = await this.db.delayTask.updateManyAndReturn({
      where: { id, status: 'pending' },
      data: { status, executed_at },
    });
    return toDelayTaskOrNull(row);
  }

  async finish(claim: DelayClaim, outcome: FireOutcome, now: Date): Promise<void> {
    const result = storedResult(outcome.result);
    const error = outcome.error ?? null;
    await this.db.$transaction([
      this.db.delayTask.update({
        where: { id: claim.task.id },
        data: { status: outcome.status, result, error },
      }),
      this.db.taskFire.update({
        where: { id: claim.fireId },
        data: { status: outcome.status, result, error, finished_at: now },
      }),
    ]);
  }

  /** The task of an interrupted fire becomes failed (pending too: the claim itself was cut short). */
  async markInterrupted(id: string, outcome: InterruptedOutcome): Promise<void> {
    await this.db.delayTask.updateMany({
      where: { id, status: { in: ['pending', 'running'] } },
      data: { status: outcome.status, error: outcome.error },
    });
  }
}

function toDelayTask(row: Prisma.DelayTaskModel): DelayTask {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    key_id: row.key_id,
    run_at: row.run_at,
    status: row.status as DelayStatus,
    misfire_policy: row.misfire_policy as MisfirePolicy,
    catchup_window_ms: row.catchup_window_ms,
    ...targetOf(row),
    result: parseStored(row.result),
    error: row.error,
    executed_at: row.executed_at,
    created_at: row.created_at,
  };
}

function toDelayTaskOrNull(row: Prisma.DelayTaskModel | null | undefined): DelayTask | null {
  return row ? toDelayTask(row) : null;
}
