import type { RunState } from '@app/agent-core';
import type { HookEvent, HookPolicy, HookTrace } from '@app/contracts';
import { Metrics } from '@app/observability';

export interface HookCallRecord {
  event: HookEvent;
  target: string;
  outcome: HookTrace['outcome'];
  elapsedMs: number;
  decision?: string;
  /** A failed hook: the policy that decided what the run did about it. */
  policy?: HookPolicy;
  error?: string;
}

/** One hook call in the run's trace (a `hook` step) and in the metrics. */
export function recordHookCall(run: RunState, record: HookCallRecord): void {
  const { event, target, outcome, decision, policy, error, elapsedMs } = record;
  run.addTrace({
    step: run.step,
    kind: 'hook',
    hook: { event, target, outcome, ...(decision ? { decision } : {}), ...(policy ? { policy } : {}) },
    ...(error ? { error } : {}),
    elapsed_ms: elapsedMs,
  });
  Metrics.hookCalls().inc({ event, outcome });
  Metrics.hookDuration().observe({ event }, elapsedMs / 1_000);
}
