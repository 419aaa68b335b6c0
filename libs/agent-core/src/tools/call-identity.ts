import type { CallerDto } from '@app/contracts';
import type { RunContext } from '../run-context';

/**
 * Who a run's call is made for: its caller's identity, its agent chain and what it may still spend
 * (a hook's function call too, as `kind: 'hook'`).
 */
export function callerOf(run: RunContext['run'], kind: CallerDto['kind'] = 'agent'): CallerDto {
  const tokensLeft = run.tokensLeft();
  const costLeft = run.costLeftUsd();
  return {
    agent: run.definition.name,
    run_id: run.runId,
    session_id: run.identity.sessionId,
    principal: run.identity.principal,
    ...(run.identity.keyId ? { key_id: run.identity.keyId } : {}),
    scopes: run.identity.scopes,
    kind,
    chain: [...(run.identity.chain ?? []), run.definition.name],
    ...(tokensLeft === undefined ? {} : { tokens_left: tokensLeft }),
    ...(costLeft === undefined ? {} : { cost_left_usd: costLeft }),
  };
}

/** The same call of the same run has the same key, on whichever executor it is sent (again). */
export function idempotencyKeyOf(runId: string, step: number, index: number): string {
  return `${runId}:${step}:${index}`;
}
