import { Inject, Injectable } from '@nestjs/common';
import type { Plan, PlanStep } from '@app/contracts';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { RunState } from '../runs/run-state';
import { RunRepository } from '../runs/run.repository';
import { ToolExecutorService } from '../tools/tool-executor.service';

/** Runs one plan step through the same gate as a ReAct call: allow-list, schema, limits, `fn.exec`. */
@Injectable()
export class PlanStepsService {
  constructor(
    @Inject(ToolExecutorService) private readonly tools: ToolExecutorService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(RunRepository) private readonly runs: RunRepository,
  ) {}

  async run(
    run: RunState,
    plan: Plan,
    step: PlanStep,
  ): Promise<{ failed: boolean; observation: string; limitReached: boolean }> {
    run.step += 1;
    step.status = 'running';
    this.events.emit(run, 'step', step);
    const batch = await this.tools.executeAll([{ name: step.tool, params: step.params }], run);
    const [outcome] = batch.outcomes;
    step.status = outcome.status === 'success' ? 'completed' : 'failed';
    step.elapsed_ms = outcome.elapsedMs;
    if (outcome.status === 'success') step.result = outcome.result;
    else step.error = outcome.error?.message;
    run.trace.push({
      step: run.step,
      kind: 'plan_step',
      ...(step.description ? { thought: step.description } : {}),
      action: { tool: step.tool, args: outcome.args },
      observation: outcome.observation,
      ...(step.error ? { error: step.error } : {}),
      elapsed_ms: outcome.elapsedMs,
    });
    this.events.emit(run, 'step', step);
    await this.runs.savePlan(run.runId, plan);
    return {
      failed: outcome.status !== 'success',
      observation: outcome.observation,
      limitReached: batch.limitReached,
    };
  }
}
