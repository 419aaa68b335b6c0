import { type FnExecRequest, TimeoutError } from '@app/contracts';

/**
 * How long a call may run: the caller's timeout, else the function's own, and never past the
 * caller's deadline. The provider answers a little before that deadline, so the caller hears the
 * provider's precise "timed out" rather than a bare bus timeout.
 */
export function callBudgetMs(request: FnExecRequest, functionTimeoutMs: number, now = Date.now()): number {
  const requested = callLimitMs(request, functionTimeoutMs);
  if (request.deadline_ms === undefined) return requested;
  const remaining = request.deadline_ms - now;
  const budget = Math.min(requested, remaining - replyMargin(remaining));
  if (budget <= 0) throw new TimeoutError('the call reached its provider after its deadline');
  return Math.floor(budget);
}

/** The time limit as the caller (or the function's definition) set it: what a timeout reports. */
export function callLimitMs(request: FnExecRequest, functionTimeoutMs: number): number {
  return request.timeout_ms ?? functionTimeoutMs;
}

function replyMargin(remainingMs: number): number {
  return Math.min(50, Math.max(1, remainingMs * 0.05));
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

export function traceIdOf(traceparent?: string): string | undefined {
  return traceparent ? TRACEPARENT.exec(traceparent.trim())?.[1] : undefined;
}
