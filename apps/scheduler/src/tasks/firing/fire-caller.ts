import { SCOPES, type Scope } from '@app/contracts';
import type { KeyStanding } from '@app/limits';

/** The key id a task made with authentication off carries (the gateway's caller then). */
const NO_KEY = 'anonymous';

/**
 * Who a fire acts for: the scopes and budget of the key that created its task, or why it may not run;
 * `final` when no later fire can run either (the key was revoked or deleted), so a cron stops.
 */
export type FireCaller =
  { scopes?: Scope[]; dailyCostBudgetUsd?: number } | { refused: string; final?: boolean };

/**
 * A fire acts for the API key that created its task, with that key's scopes as they are now: a
 * revoked or deleted key's task is refused. A task made with authentication off acts with every
 * scope while it stays off (as its caller could), and is refused once it is on. A task from before
 * keys were recorded (no key) acts with no scopes: functions that need one refuse it.
 */
export function fireCaller(
  keyId: string | null,
  standing: KeyStanding | null,
  authEnabled: boolean,
): FireCaller {
  if (!keyId) return {};
  if (keyId === NO_KEY) {
    return authEnabled
      ? { refused: 'the task was created with authentication off and it is on now: no API key to act for' }
      : { scopes: [...SCOPES] };
  }
  if (!standing)
    return { refused: `the API key '${keyId}' that created the task no longer exists`, final: true };
  if (standing.revokedAt)
    return {
      refused: `the API key '${keyId}' that created the task was revoked (${standing.revokedAt.toISOString()})`,
      final: true,
    };
  return { scopes: standing.scopes as Scope[], dailyCostBudgetUsd: standing.dailyCostBudgetUsd };
}
