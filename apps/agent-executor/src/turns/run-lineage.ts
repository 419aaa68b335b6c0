import type { AgentProfile } from '../agents/agent-profile';
import type { RunLineage } from '../store/run.repository';

/** The time the run leaves itself before the call's deadline to write its record and reply. */
const REPLY_MARGIN_MS = 250;

/** The profile with its limits cut to what the caller has left. */
export function boundedBy(profile: AgentProfile, lineage: RunLineage, now = Date.now()): AgentProfile {
  const timeLeft = Math.max(1, lineage.deadline - now - REPLY_MARGIN_MS);
  return {
    ...profile,
    run_timeout: Math.min(profile.run_timeout ?? Number.POSITIVE_INFINITY, timeLeft),
    total_token_budget: lowerBudget(profile.total_token_budget, lineage.tokensLeft),
    ...(lineage.costLeftUsd === undefined
      ? {}
      : { max_cost_usd: Math.min(profile.max_cost_usd ?? Number.POSITIVE_INFINITY, lineage.costLeftUsd) }),
  };
}

/** 0 is no limit for a token budget; a parent with nothing left leaves the child 1 token, not none. */
function lowerBudget(own: number, left: number | undefined): number {
  if (left === undefined) return own;
  const bound = Math.max(1, left);
  return own > 0 ? Math.min(own, bound) : bound;
}
