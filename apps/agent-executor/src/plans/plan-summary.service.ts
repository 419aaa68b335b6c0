import { Inject, Injectable } from '@nestjs/common';
import type { FinishReason } from '@app/contracts';
import type { ChatMessage } from '@app/llm';
import { ModelCallerService } from '../model/model-caller.service';
import { modelFailure } from '../runs/model-failure';
import { ended, limitBeforeStep, type RunOutcome } from '../runs/run-endings';
import type { RunState } from '../runs/run-state';
import { summaryRequest } from './plan-prompt';

/** The one model call that turns a carried-out plan into the reply. */
@Injectable()
export class PlanSummaryService {
  constructor(@Inject(ModelCallerService) private readonly model: ModelCallerService) {}

  /** `stop`: why the plan ended early; the run still gets a reply, with that finish reason. */
  async write(
    run: RunState,
    conversation: ChatMessage[],
    observations: string[],
    stop?: { reason: Exclude<FinishReason, 'final'>; error?: string },
  ): Promise<RunOutcome> {
    const limit = limitBeforeStep(run, Number.POSITIVE_INFINITY);
    if (limit) return ended(run, limit);
    run.step += 1;
    const messages: ChatMessage[] = [
      { role: 'system', content: run.profile.system_prompt },
      ...conversation,
      { role: 'user', content: summaryRequest(observations) },
    ];
    const started = performance.now();
    try {
      const result = await this.model.complete(run, messages, { deltas: 'all' });
      run.trace.push({
        step: run.step,
        kind: 'summary',
        elapsed_ms: result.elapsedMs,
        tokens: { ...result.usage },
      });
      const reply = result.text.trim();
      return stop
        ? { finishReason: stop.reason, reply, ...(stop.error ? { error: stop.error } : {}) }
        : { finishReason: 'final', reply };
    } catch (err) {
      const failure = modelFailure(run, err, started);
      return failure.outcome ?? ended(run, 'error', failure.error);
    }
  }
}
