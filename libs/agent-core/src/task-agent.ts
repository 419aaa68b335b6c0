import type { PlanStep } from '@app/contracts';
import { Agent } from './agent';
import type { AgentResult, RunInput } from './agent-types';
import type { AgentDefinition } from './agent-definition';
import { PlanError } from './errors';
import { forCallerPlan } from './strategies/caller-plan';
import { planErrors } from './strategies/plan-check';
import type { AgentRuntime } from './runtime';
import type { PlannedStep } from './strategies/plan-parser';

/** What a caller's plan run answers when the caller gives no goal. */
export const DEFAULT_PLAN_GOAL = 'Carry out the plan.';

/**
 * An agent that works by plans: `run(goal)` has the model write the plan (held for approval when
 * the definition asks), `executePlan(steps)` carries out the caller's own plan; either way the
 * steps run in order under the definition's failure policy and one model call writes the answer.
 */
export class TaskAgent {
  private readonly agent: Agent;

  constructor(runtime: AgentRuntime, definition: AgentDefinition) {
    this.agent = new Agent(runtime, { ...definition, mode: 'plan' });
  }

  get definition(): AgentDefinition {
    return this.agent.definition;
  }

  run(goal: RunInput | string): Promise<AgentResult> {
    return this.agent.run(goal);
  }

  /** Carries out a plan `run` held for approval. */
  approve(held: AgentResult, input?: Parameters<Agent['approve']>[1]): Promise<AgentResult> {
    return this.agent.approve(held, input);
  }

  /**
   * `goal`: what the summary answers; the steps run like a written plan's, none held for approval
   * (the caller chose them: `forCallerPlan`). The plan is checked
   * whole first (`planErrors`): a bad one runs nothing and throws a `PlanError` (`plan_invalid`)
   * naming every bad step.
   */
  async executePlan(steps: PlannedStep[], goal: RunInput | string = DEFAULT_PLAN_GOAL): Promise<AgentResult> {
    const errors = planErrors(await this.agent.runtime.ports.functions.catalogue(), this.definition, steps);
    if (errors.length > 0)
      throw new PlanError(
        'plan_invalid',
        `invalid plan: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
      );
    const input = typeof goal === 'string' ? { message: goal } : goal;
    const planned: PlanStep[] = steps.map((step, index) => ({ ...step, index, status: 'pending' }));
    return new Agent(this.agent.runtime, forCallerPlan(this.definition)).execute(input, {
      prepare: (run) => run.setPlan({ revision: 0, steps: planned }),
    });
  }
}
