import type { Plan } from '@app/contracts';
import { REJECTED_REPLY, type RunOutcome } from '../run-outcome';

/**
 * A plan held for approval, rejected: none of its steps runs (each is `skipped`), and the run
 * ends `rejected` (its `error`, the reviewer's reason when one was given).
 */
export function rejectPlan(plan: Plan | undefined, reason?: string): { plan?: Plan; outcome: RunOutcome } {
  const outcome: RunOutcome = {
    finishReason: 'rejected',
    reply: REJECTED_REPLY,
    ...(reason ? { error: reason } : {}),
  };
  if (!plan) return { outcome };
  return { plan: { ...plan, steps: plan.steps.map((step) => ({ ...step, status: 'skipped' })) }, outcome };
}
