import type { FinishReason } from '@app/contracts';
import type { ChatMessage } from '../model/model-client';
import { modelStep, type ModelStep } from '../model/model-step';
import type { RunContext } from '../run-context';
import type { RunOutcome } from '../run-outcome';
import type { PlannedStep, PlanParser } from './plan-parser';
import { summaryRequest } from './plan-prompt';
import { systemTurns } from '../prompts/system-turns';

/**
 * The model step that writes a plan. A first plan that cannot be read gets one repair round, as
 * in ReAct; a revision (replan) is one call, and an unreadable one is a failure of the plan.
 */
export function writePlan(
  ctx: RunContext,
  messages: ChatMessage[],
  kind: 'plan' | 'replan',
  parser: PlanParser,
): Promise<ModelStep<PlannedStep[]>> {
  const { allowed_tools: allowList, max_steps: maxSteps } = ctx.run.definition;
  return modelStep(ctx, [...messages], {
    deltas: 'none',
    traceKind: kind,
    repairs: kind === 'plan' ? 1 : 0,
    read: (result) => {
      const parsed = parser.parse(result.text, allowList, maxSteps);
      if (parsed.ok) return { ok: true, value: parsed.steps };
      return { ok: false, error: ctx.prompts.render('repair_plan', { error: parsed.error }) };
    },
  });
}

/** The one model step that turns a carried-out plan into the reply; `stop`: why the plan ended early. */
export async function writeSummary(
  ctx: RunContext,
  conversation: ChatMessage[],
  observations: string[],
  stop?: { reason: Exclude<FinishReason, 'final'>; error?: string },
): Promise<RunOutcome> {
  const messages: ChatMessage[] = [
    ...systemTurns(ctx.run.definition.system_prompt, ctx.run.definition),
    ...conversation,
    { role: 'user', content: summaryRequest(ctx.prompts, observations) },
  ];
  const step = await modelStep(ctx, messages, {
    deltas: 'all',
    traceKind: 'summary',
    repairs: 0,
    read: (result) => ({ ok: true, value: result.text.trim() }),
  });
  if (!step.ok) return step.outcome;
  const reply = step.value;
  return stop
    ? { finishReason: stop.reason, reply, ...(stop.error ? { error: stop.error } : {}) }
    : { finishReason: 'final', reply };
}
