import type { ApprovalDecision, ApprovalDecisions, HeldCall } from '@app/agent-core';
import type { PendingApproval } from '@app/contracts';

/** A held call as the run's record keeps it: what was shown, where it sits, and its decision once taken. */
export interface HeldApproval extends PendingApproval {
  step: number;
  index: number;
  decision?: ApprovalDecision;
  /** Who decided: a person through the API, or the timeout's default. */
  decided_by?: 'caller' | 'timeout';
  /** The deciding key's principal (empty with authentication off). */
  decider?: string;
  decided_at?: string;
}

/** The calls a run just held, as stored: asked now, expiring after `timeoutMs` (0: never). */
export function heldApprovals(held: HeldCall[], now: Date, timeoutMs: number): HeldApproval[] {
  const expires = timeoutMs > 0 ? new Date(now.getTime() + timeoutMs).toISOString() : null;
  return held.map((call) => ({
    call_id: call.callId,
    function: call.name,
    arguments: call.args,
    hash: call.hash,
    asked_at: now.toISOString(),
    expires_at: expires,
    step: call.step,
    index: call.index,
  }));
}

export function undecided(approvals: HeldApproval[]): HeldApproval[] {
  return approvals.filter((approval) => !approval.decision);
}

/** What the API shows of a held call: nothing of where it sits in the run. */
export function pendingView(approval: HeldApproval): PendingApproval {
  const { call_id, function: fn, arguments: args, hash, asked_at, expires_at } = approval;
  return { call_id, function: fn, arguments: args, hash, asked_at, expires_at };
}

/** The decisions the engine applies when the run is carried on. */
export function decisionsOf(approvals: HeldApproval[]): ApprovalDecisions {
  return new Map(
    approvals.flatMap((approval) =>
      approval.decision ? [[approval.call_id, approval.decision] as const] : [],
    ),
  );
}

/** The earliest time one of `approvals` expires, or null. */
export function expiryOf(approvals: HeldApproval[]): Date | null {
  const times = undecided(approvals)
    .map((approval) => approval.expires_at)
    .filter((at): at is string => at !== null)
    .map((at) => new Date(at).getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}
