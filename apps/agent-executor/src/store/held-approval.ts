import type { ApprovalDecision } from '@app/agent-core';
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
  /** The deciding API key's id. */
  decider_key?: string;
  decided_at?: string;
}

export function undecided(approvals: HeldApproval[]): HeldApproval[] {
  return approvals.filter((approval) => !approval.decision);
}

/** What the API shows of a held call: nothing of where it sits in the run. */
export function pendingView(approval: HeldApproval): PendingApproval {
  const { call_id, function: fn, arguments: args, hash, asked_at, expires_at } = approval;
  return { call_id, function: fn, arguments: args, hash, asked_at, expires_at };
}

/** The earliest time one of `approvals` expires, or null. */
export function expiryOf(approvals: HeldApproval[]): Date | null {
  const times = undecided(approvals)
    .map((approval) => approval.expires_at)
    .filter((at): at is string => at !== null)
    .map((at) => new Date(at).getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/**
 * The decision on a run's plan held whole for approval (`plan_approval`), as the run's record keeps
 * it (`plan_decision`): written in the statement that moves the run out of `awaiting_approval`, so
 * only the decision that won is on record.
 */
export interface PlanDecision {
  action: 'approve' | 'reject';
  /** The plan decided (0: the first plan). */
  revision: number;
  /** The plan's step in the run's trace. */
  step: number;
  /** The deciding key's principal (empty with authentication off). */
  decider: string;
  /** The deciding API key's id. */
  decider_key?: string;
  /** When the run paused for the plan's approval. */
  asked_at: string;
  decided_at: string;
  /** A rejection's reason, as the decider gave it. */
  reason?: string;
}
