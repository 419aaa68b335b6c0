import { Inject, Injectable } from '@nestjs/common';
import { DB, type Db, toJson } from '@app/persistence';
import { expiryOf, type HeldApproval, type PlanDecision } from './held-approval';
import { READABLE_FORMATS, WRITTEN_FORMATS } from './run-formats';

/**
 * The calls a run holds for approval, on the run's own row (`approvals`, `approval_expires_at`).
 * Each write is one conditional update: a decision lands only on the row as its decider read it
 * (`updated_at`), and the one that lets the run go on moves it to `running` with this executor's
 * lease in the same statement, so exactly one executor carries the run on.
 */
@Injectable()
export class RunApprovalRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * Adds the calls a run just held to the decisions it already had (a run may hold more than once);
   * a call held again under the same id (its step was asked again) replaces the old one.
   */
  async hold(id: string, held: HeldApproval[]): Promise<void> {
    const row = await this.db.run.findUnique({ where: { id }, select: { approvals: true } });
    const before = (row?.approvals as HeldApproval[] | null) ?? [];
    const ids = new Set(held.map((call) => call.call_id));
    const approvals = [...before.filter((call) => !ids.has(call.call_id)), ...held];
    await this.db.run.updateMany({
      where: { id },
      data: { approvals: toJson(approvals), approval_expires_at: expiryOf(approvals) },
    });
  }

  /** Records decisions while other calls still wait: false when the row changed since `seen`. */
  async decide(id: string, seen: Date, approvals: HeldApproval[]): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: 'awaiting_approval', updated_at: seen },
      data: { approvals: toJson(approvals), approval_expires_at: expiryOf(approvals) },
    });
    return count === 1;
  }

  /** Every call decided: the run goes on, leased to `owner`. False when another decision won. */
  async release(
    id: string,
    seen: Date,
    approvals: HeldApproval[],
    lease: { owner: string; until: Date },
  ): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: 'awaiting_approval', updated_at: seen, ...READABLE_FORMATS },
      data: {
        ...WRITTEN_FORMATS,
        status: 'running',
        approvals: toJson(approvals),
        approval_expires_at: null,
        lease_owner: lease.owner,
        lease_until: lease.until,
      },
    });
    return count === 1;
  }

  /**
   * Decides a plan held whole: the run goes on leased to the approving executor (with `lease`) or
   * is cancelled (without), its decision on record in the same statement. False when another
   * decision, or a cancel, won.
   */
  async decidePlan(
    id: string,
    decision: PlanDecision,
    lease?: { owner: string; until: Date },
  ): Promise<boolean> {
    const { count } = await this.db.run.updateMany({
      where: { id, status: 'awaiting_approval' },
      data: {
        status: lease ? 'running' : 'cancelled',
        plan_decision: toJson(decision),
        ...(lease ? { lease_owner: lease.owner, lease_until: lease.until, ...WRITTEN_FORMATS } : {}),
      },
    });
    return count === 1;
  }

  /** Runs with a held call past its timeout, the longest overdue first. */
  async expired(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db.run.findMany({
      where: { status: 'awaiting_approval', approval_expires_at: { lt: now }, ...READABLE_FORMATS },
      orderBy: { approval_expires_at: 'asc' },
      take: limit,
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }
}
