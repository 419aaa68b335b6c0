import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db } from '@app/persistence';
import { READABLE_FORMATS, WRITTEN_FORMATS } from './run-formats';
import type { TurnOptions } from './run.repository';

/** A run whose lease lapsed, as a taker needs it. */
export interface LapsedRun {
  id: string;
  leaseOwner: string | null;
}

/**
 * Run leases: the executor that runs a run holds it on the run's own row (`lease_owner`,
 * `lease_until`). Every statement is one conditional update, so on SQLite and PostgreSQL alike a
 * renewal touches only its own executor's rows and a claim has exactly one winner.
 */
@Injectable()
export class RunLeaseRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * One statement per heartbeat renews the runs `owner` runs (`ids`): returns how many it still
   * holds. Only those: a run whose execution here ended without its end recorded (the database
   * went away at that moment) must lapse, so that an executor takes it over and ends it.
   */
  async renew(owner: string, ids: string[], until: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const { count } = await this.db.run.updateMany({
      where: { id: { in: ids }, lease_owner: owner, status: 'running' },
      data: { lease_until: until },
    });
    return count;
  }

  /** Of `ids`, those still running but leased by another executor now (taken over from `owner`). */
  async lostBy(owner: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.run.findMany({
      where: { id: { in: ids }, status: 'running', NOT: { lease_owner: owner } },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** Running runs whose lease lapsed before `now`, oldest lapse first; only those this executor can read. */
  async lapsed(now: Date, limit: number): Promise<LapsedRun[]> {
    const rows = await this.db.run.findMany({
      where: { status: 'running', lease_until: { lt: now }, ...READABLE_FORMATS },
      orderBy: { lease_until: 'asc' },
      take: limit,
      select: { id: true, lease_owner: true },
    });
    return rows.map((row) => ({ id: row.id, leaseOwner: row.lease_owner }));
  }

  /**
   * Takes over a run whose lease lapsed before `now`: true for exactly one of the executors that try.
   * Counts the takeover; the run is this executor's to write from now on, in its formats.
   */
  async claim(id: string, owner: string, now: Date, until: Date): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: 'running', lease_until: { lt: now }, ...READABLE_FORMATS },
      data: { lease_owner: owner, lease_until: until, takeovers: { increment: 1 }, ...WRITTEN_FORMATS },
    });
    return count === 1;
  }

  /** Leases a run that is running again (its plan approved) to `owner`, with what a taker needs now. */
  async take(id: string, owner: string, until: Date, options: TurnOptions): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: 'running' },
      data: { lease_owner: owner, lease_until: until, turn_options: options as object, ...WRITTEN_FORMATS },
    });
    return count === 1;
  }

  /** Gives `ids` up at once (a stopping executor): the next sweep of any other executor claims them. */
  async release(owner: string, ids: string[], now: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const { count } = await this.db.run.updateMany({
      where: { id: { in: ids }, lease_owner: owner, status: 'running' },
      data: { lease_until: now },
    });
    return count;
  }
}
