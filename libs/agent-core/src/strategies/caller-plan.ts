import type { AgentMode } from '@app/contracts';

interface Gated {
  mode?: AgentMode;
  plan_approval?: boolean;
  needs_approval?: string[];
}

/**
 * The definition a plan the caller wrote runs under: as written, held neither whole (`plan_approval`)
 * nor call by call (`needs_approval`): the caller chose each call and its arguments. A plan the model
 * wrote is held as the definition says.
 */
export function forCallerPlan<T extends Gated>(definition: T): T {
  return { ...definition, mode: 'plan', plan_approval: false, needs_approval: undefined };
}
