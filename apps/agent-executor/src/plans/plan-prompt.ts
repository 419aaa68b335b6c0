import type { FunctionDefinition, Plan, PlanStep } from '@app/contracts';
import { describeFunctions } from '@app/protocol';
import type { AgentProfile } from '../agents/agent-profile';

const PLAN_FORMAT =
  '{"steps":[{"description":"what the step does","tool":"function_name","params":{"name":"value"}}]}';

/** The planning system prompt: the agent's instructions, the plan format, the allowed functions. */
export function planningPrompt(profile: AgentProfile, functions: FunctionDefinition[]): string {
  return [
    profile.system_prompt.trim(),
    `## Planning
Write a plan for the user's request. Reply with one JSON object and nothing else:
${PLAN_FORMAT}
Each step calls one function with literal parameter values; the steps run in order; at most ${profile.max_steps} steps. If no function is needed, reply {"steps":[]}.`,
    listFunctions(functions),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function replanRequest(plan: Plan, failed: PlanStep): string {
  const done = plan.steps.filter((step) => step.status === 'completed');
  const results = done.map(
    (step) => `- step ${step.index + 1} (${step.tool}) succeeded: ${JSON.stringify(step.result ?? {})}`,
  );
  return [
    `Step ${failed.index + 1} (${failed.tool}) failed: ${failed.error ?? 'unknown error'}.`,
    ...(results.length ? ['Completed so far:', ...results] : []),
    `Write the steps that remain to be done, in the same JSON format: ${PLAN_FORMAT}`,
  ].join('\n');
}

export function summaryRequest(observations: string[]): string {
  return [
    'The plan has been carried out. The results of its steps:',
    ...observations,
    "Now answer the user's request from these results. Do not call functions.",
  ].join('\n');
}

/** Steps as the model wrote them, replayed as its own turn. */
export function planText(steps: PlanStep[]): string {
  return JSON.stringify({
    steps: steps.map(({ description, tool, params }) => ({ description, tool, params })),
  });
}

export function describePlan(plan: Plan): string {
  const lines = plan.steps.map(
    (step) =>
      `${step.index + 1}. ${step.description || step.tool} (${step.tool} ${JSON.stringify(step.params)})`,
  );
  return ['The plan is waiting for approval:', ...lines].join('\n');
}

/** Full signatures, whatever their size: a plan is written in one reply, with no round to ask. */
function listFunctions(functions: FunctionDefinition[]): string {
  return functions.length === 0 ? '## Functions\n(none)' : describeFunctions(functions);
}
