import type { PlanStep } from '@app/contracts';
import { isAllowed } from '@app/protocol/portable';

/** A step as the model wrote it, before it is numbered and run. */
export type PlannedStep = Omit<PlanStep, 'index' | 'status'>;

export type ParsedPlan = { ok: true; steps: PlannedStep[] } | { ok: false; error: string };

/**
 * Reads a plan from a model reply. Its error says what could not be read: the run sends it back
 * inside the agent's `repair_plan` template (which a definition replaces for another format).
 */
export interface PlanParser {
  parse(text: string, allowList: readonly string[], maxSteps: number): ParsedPlan;
}

/**
 * Reads a plan from a model reply: one JSON object with `steps`, tolerating a code fence or prose
 * around it and `parameters`/`args` for `params`. Every tool must be allowed and the plan no longer
 * than `maxSteps`; the error names the problem (the prompts' `repair_plan` makes the repair turn).
 */
export function parsePlan(text: string, allowList: readonly string[], maxSteps: number): ParsedPlan {
  const json = outermostObject(text);
  if (!json) return invalid('it contains no JSON object');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return invalid(`its JSON is malformed (${(err as Error).message})`);
  }
  const steps = (value as { steps?: unknown })?.steps;
  if (!Array.isArray(steps)) return invalid('it has no "steps" array');
  if (steps.length > maxSteps)
    return invalid(`it has ${steps.length} steps; at most ${maxSteps} are allowed`);
  const read: PlannedStep[] = [];
  for (const [i, raw] of steps.entries()) {
    const step = readStep(raw);
    if (typeof step === 'string') return invalid(`step ${i + 1} ${step}`);
    if (!isAllowed(allowList, step.tool))
      return invalid(`step ${i + 1} uses '${step.tool}', which is not an available function`);
    read.push(step);
  }
  return { ok: true, steps: read };
}

function readStep(raw: unknown): PlannedStep | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'is not an object';
  const step = raw as Record<string, unknown>;
  const tool = typeof step.tool === 'string' ? step.tool.trim() : '';
  if (!tool) return 'has no "tool"';
  const params = step.params ?? step.parameters ?? step.args ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return 'has "params" that are not an object';
  const description = typeof step.description === 'string' ? step.description : '';
  return { description, tool, params: params as Record<string, unknown> };
}

function outermostObject(text: string): string | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}

function invalid(problem: string): ParsedPlan {
  return { ok: false, error: problem };
}

/** The reference parser: the JSON plan format of the planning prompt. */
export const JSON_PLAN_PARSER: PlanParser = { parse: parsePlan };
