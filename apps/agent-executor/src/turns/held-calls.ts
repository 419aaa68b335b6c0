import type { ApprovalDecisions, HeldCall } from '@app/agent-core';
import type { HeldApproval } from '../store/held-approval';

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

/** The decisions the engine applies when the run is carried on. */
export function appliedDecisions(approvals: HeldApproval[]): ApprovalDecisions {
  return new Map(
    approvals.flatMap((approval) =>
      approval.decision ? [[approval.call_id, approval.decision] as const] : [],
    ),
  );
}
