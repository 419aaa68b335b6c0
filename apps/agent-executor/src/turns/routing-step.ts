import type { RoutingDecision } from '@app/contracts';

/** Where a message without a run id went, and why: the first step of the run it went to. */
export function routingStep(step: number, message: string, decision: RoutingDecision) {
  return { step, kind: 'routing' as const, message, routing: decision, elapsed_ms: 0 };
}
