import { Inject, Injectable } from '@nestjs/common';
import { forCallerPlan, planErrors } from '@app/agent-core';
import { type AgentRunRequest, type ClientPlan, InvalidParamsError, type Plan } from '@app/contracts';
import type { AgentProfile } from '../agents/agent-profile';
import { BusFunctions } from '../tools/bus-functions';

const PLAN_ALONE =
  'cannot be given with a plan: a plan run offers no client tools and continues no paused run';

/**
 * A caller's own plan (`POST /api/v1/runs`): checked whole before anything runs, then carried out
 * by the agent as a plan run, with the agent's step-failure policy, allow-list and limits.
 */
@Injectable()
export class ClientPlansService {
  constructor(@Inject(BusFunctions) private readonly functions: BusFunctions) {}

  /** The agent as a plan run (never held for approval: the caller wrote the plan) and the plan to carry out. */
  async prepare(
    request: AgentRunRequest,
    agent: AgentProfile,
  ): Promise<{ profile: AgentProfile; plan: Plan }> {
    const alone = (['client_tools', 'tool_results', 'history'] as const).filter(
      (f) => request[f] !== undefined,
    );
    if (alone.length > 0)
      throw new InvalidParamsError(
        alone.map((field) => ({ field, message: PLAN_ALONE })),
        'invalid run request',
      );
    const steps = stepsOf(request.plan as ClientPlan);
    // The whole catalogue, gathered again when empty (providers may not have answered since a restart).
    const errors = planErrors(await this.functions.catalogue(), agent, steps, 'plan.steps');
    if (errors.length > 0) throw new InvalidParamsError(errors, 'invalid plan');
    return {
      profile: forCallerPlan(agent),
      plan: { revision: 0, steps: steps.map((step, index) => ({ ...step, index, status: 'pending' })) },
    };
  }
}

function stepsOf(plan: ClientPlan) {
  return plan.steps.map((step) => ({
    description: step.description ?? '',
    tool: step.tool,
    params: step.parameters ?? {},
  }));
}
