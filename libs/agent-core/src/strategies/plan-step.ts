import type { PlanStep } from '@app/contracts';
import type { RunContext } from '../run-context';
import { toolStep } from '../tools/tool-step';

/** Runs one plan step through the same gate as a ReAct call: hooks, allow-list, schema, limits. */
export async function runPlanStep(
  ctx: RunContext,
  step: PlanStep,
): Promise<{ failed: boolean; observation: string; limitReached: boolean }> {
  const { run } = ctx;
  run.nextStep();
  step.status = 'running';
  run.emit('step', step);
  const batch = await toolStep(ctx, [{ name: step.tool, params: step.params }]);
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
  await ctx.store?.planChanged(run);
  return {
    failed: outcome.status !== 'success',
    observation: outcome.observation,
    limitReached: batch.limitReached,
  };
}
