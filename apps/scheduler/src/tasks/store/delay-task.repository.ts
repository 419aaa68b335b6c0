import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError, type DelayStatus } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import { type FireOutcome, type InterruptedOutcome, storedResult } from '../domain/fire-outcome';
import { isUniqueViolation, PAGE_SIZE, type TaskPage } from './repository.util';
import type { DelayInput } from '../api/task-input';
import type { DelayTaskRow } from '../api/task.views';

export interface DelayClaim {
  task: DelayTaskRow;
  fireId: string;
}

type DelayFilter = { status?: DelayStatus; owner?: string };

const delayWhere = (filter: DelayFilter) => ({ status: filter.status, owner: filter.owner || undefined });

/** DelayTask rows. */
@Injectable()
export class DelayTaskRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async create(input: DelayInput, catchupWindowMs: number): Promise<DelayTaskRow> {
    try {
      return await this.db.delayTask.create({
        data: { id: randomUUID(), ...input, catchup_window_ms: catchupWindowMs },
      });
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

  findByName(name: string): Promise<DelayTaskRow | null> {
    return this.db.delayTask.findUnique({ where: { name } });
  }

  /** In a stable order (run_at, then the unique name), so pages neither skip nor repeat a task. */
  list(filter: DelayFilter, page: Partial<TaskPage> = {}): Promise<DelayTaskRow[]> {
    return this.db.delayTask.findMany({
      where: delayWhere(filter),
      orderBy: [{ run_at: 'asc' }, { name: 'asc' }],
      skip: page.offset ?? 0,
      take: page.limit ?? PAGE_SIZE,
    });
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
  pendingPage(afterId: string, before?: Date): Promise<DelayTaskRow[]> {
    return this.db.delayTask.findMany({
      where: { status: 'pending', id: { gt: afterId }, run_at: before ? { lt: before } : undefined },
      orderBy: { id: 'asc' },
      take: PAGE_SIZE,
    });
  }

  findById(id: string): Promise<DelayTaskRow | null> {
    return this.db.delayTask.findUnique({ where: { id } });
  }

  /** pending → running (or missed), atomically; the task as it now is, or null when it was not pending. */
  async leavePending(id: string, status: 'running' | 'missed', now: Date): Promise<DelayTaskRow | null> {
    const executed_at = status === 'running' ? now : undefined;
    const [row] = await this.db.delayTask.updateManyAndReturn({
      where: { id, status: 'pending' },
      data: { status, executed_at },
    });
    return row ?? null;
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
