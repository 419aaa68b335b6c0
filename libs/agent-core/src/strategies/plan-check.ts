import type { FieldError, FunctionDefinition } from '@app/contracts';
import { isAllowed } from '@app/protocol/portable';
import type { AgentDefinition } from '../agent-definition';
import { paramErrors } from '../tools/param-check';
import type { PlannedStep } from './plan-parser';

/**
 * What is wrong with a caller's plan before any step runs, every bad step named (`steps[2].tool`,
 * `steps[0].parameters.to`): no steps, more than the agent's `max_steps`, a function outside its
 * allow-list or not in `catalogue`, parameters its schema refuses. The same rules a model's plan
 * meets, but all at once: a caller fixes the whole plan in one go, and nothing runs until it is right.
 */
export function planErrors(
  catalogue: readonly FunctionDefinition[],
  definition: AgentDefinition,
  steps: readonly PlannedStep[],
  path = 'steps',
): FieldError[] {
  if (steps.length === 0) return [{ field: path, message: 'is empty: a plan has at least one step' }];
  const errors: FieldError[] = [];
  if (steps.length > definition.max_steps)
    errors.push({
      field: path,
      message: `has ${steps.length} steps; agent '${definition.name}' runs at most ${definition.max_steps}`,
    });
  const known = new Map(catalogue.map((fn) => [fn.name, fn]));
  for (const [i, step] of steps.entries())
    errors.push(...stepErrors(known, definition, step, `${path}[${i}]`));
  return errors;
}

function stepErrors(
  known: ReadonlyMap<string, FunctionDefinition>,
  definition: AgentDefinition,
  step: PlannedStep,
  at: string,
): FieldError[] {
  // The allow-list first: a function the agent may not call is refused without saying whether it exists.
  if (!isAllowed(definition.allowed_tools, step.tool))
    return [
      {
        field: `${at}.tool`,
        message: `'${step.tool}' is not a function agent '${definition.name}' may call`,
      },
    ];
  const found = known.get(step.tool);
  if (!found) return [{ field: `${at}.tool`, message: `no function is named '${step.tool}'` }];
  return paramErrors(found, step.params).map(({ field, message }) => ({
    field: `${at}.parameters.${field}`,
    message,
  }));
}
