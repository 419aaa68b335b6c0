import type { PlanStep } from '@app/contracts';
import type { RunContext } from '../run-context';
import type { HeldCall } from '../tools/approval-gate';
import { toolStep } from '../tools/tool-step';

export type PlanStepDone =
  { held: HeldCall[] } | { held?: undefined; failed: boolean; observation: string; limitReached: boolean };

/**
 * Runs one plan step through the same gate as a ReAct call: hooks, allow-list, schema, limits,
 * and approval: a call of a `needs_approval` function is held (the step stays pending) until a
 * person decides, as a ReAct step's is.
 */
export async function runPlanStep(ctx: RunContext, step: PlanStep): Promise<PlanStepDone> {
  const { run } = ctx;
  run.nextStep();
  step.status = 'running';
  run.emit('step', step);
  const batch = await toolStep(ctx, [{ name: step.tool, params: step.params }], { hold: true });
  if (batch.held) {
    step.status = 'pending';
    run.emit('step', step);
    return { held: batch.held };
  }
  const [outcome] = batch.outcomes;
  step.status = outcome.status === 'success' ? 'completed' : 'failed';
  step.elapsed_ms = outcome.elapsedMs;
  if (outcome.status === 'success') step.result = outcome.result;
  else step.error = outcome.error?.message;
  run.addTrace({
    step: run.step,
    kind: 'plan_step',
    ...(step.description ? { thought: step.description } : {}),
    action: { tool: step.tool, args: outcome.args },
    observation: outcome.observation,
    ...(step.error ? { error: step.error } : {}),
    elapsed_ms: outcome.elapsedMs,
  });
  run.emit('step', step);
  await ctx.hooks?.onPlanStepComplete?.(run, step);
  await ctx.journal?.planChanged(run);
  return {
    failed: outcome.status !== 'success',
    observation: outcome.observation,
    limitReached: batch.limitReached,
  };
}
