import type { AgentMode } from '@app/contracts';
import { AgentError, Cancelled, LimitExceeded, ModelError, PlanError } from './errors';
import type { RunOutcome } from './run-outcome';

const LIMITS = new Set(['max_steps', 'max_tool_calls', 'budget', 'timeout']);

/**
 * Why a run ended without an answer, as an `AgentError` (for a caller that throws on failure);
 * undefined for an answer, and for a run held for approval or for the caller's tools.
 */
export function failureOf(outcome: RunOutcome, mode: AgentMode): AgentError | undefined {
  const { finishReason: reason } = outcome;
  const message = outcome.error ?? outcome.reply;
  if (reason === 'final' || reason === 'awaiting_approval' || reason === 'client_tool_calls')
    return undefined;
  if (LIMITS.has(reason)) return new LimitExceeded(reason, message);
  if (reason === 'cancelled' || reason === 'rejected') return new Cancelled(message);
  if (outcome.failure) {
    const details = (outcome.failure.details ?? {}) as {
      llm_error?: string;
      status?: number;
      provider_code?: string;
    };
    return new ModelError(
      details.llm_error ?? 'llm_not_configured',
      outcome.failure.message,
      details.status,
      details.provider_code,
    );
  }
  if (mode === 'plan')
    return new PlanError(reason === 'parse_error' ? 'plan_unreadable' : 'plan_failed', message);
  return new AgentError(reason, message);
}
