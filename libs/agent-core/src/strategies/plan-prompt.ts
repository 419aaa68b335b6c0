import type { FunctionDefinition, Plan, PlanStep } from '@app/contracts';
import { describeFunctions } from '@app/protocol';
import type { AgentDefinition } from '../agent-definition';
import type { PromptSet } from '../prompts/prompt-set';

/** The planning system prompt: the agent's instructions, the plan format, the allowed functions. */
export function planningPrompt(
  prompts: PromptSet,
  definition: AgentDefinition,
  functions: FunctionDefinition[],
): string {
  return [
    definition.system_prompt.trim(),
    prompts.render('planning', { max_steps: definition.max_steps }),
    listFunctions(functions),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function replanRequest(prompts: PromptSet, plan: Plan, failed: PlanStep): string {
  const done = plan.steps.filter((step) => step.status === 'completed');
  const results = done.map((step) =>
    prompts.render('replan_completed_step', {
      step: step.index + 1,
      tool: step.tool,
      result: JSON.stringify(step.result ?? {}),
    }),
  );
  return [
    prompts.render('replan_failed_step', {
      step: failed.index + 1,
      tool: failed.tool,
      error: failed.error ?? 'unknown error',
    }),
    ...(results.length ? [prompts.render('replan_completed_header'), ...results] : []),
    prompts.render('replan_request'),
  ].join('\n');
}

export function summaryRequest(prompts: PromptSet, observations: string[]): string {
  return prompts.render('summary_request', { observations: observations.join('\n') });
}

/** Steps as the model wrote them, replayed as its own turn. */
export function planText(steps: PlanStep[]): string {
  return JSON.stringify({
    steps: steps.map(({ description, tool, params }) => ({ description, tool, params })),
  });
}

export function describePlan(prompts: PromptSet, plan: Plan): string {
  const lines = plan.steps.map(
    (step) =>
      `${step.index + 1}. ${step.description || step.tool} (${step.tool} ${JSON.stringify(step.params)})`,
  );
  return [prompts.render('plan_awaiting_approval'), ...lines].join('\n');
}

/** Full signatures, whatever their size: a plan is written in one reply, with no round to ask. */
function listFunctions(functions: FunctionDefinition[]): string {
  return functions.length === 0 ? '## Functions\n(none)' : describeFunctions(functions);
}
