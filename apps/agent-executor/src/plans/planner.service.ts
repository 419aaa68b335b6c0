import { Inject, Injectable } from '@nestjs/common';
import type { PlanStep } from '@app/contracts';
import type { ChatMessage } from '@app/llm';
import { ModelCallerService } from '../model/model-caller.service';
import { modelFailure } from '../runs/model-failure';
import { ended, limitBeforeStep, type RunOutcome } from '../runs/run-endings';
import type { RunState } from '../runs/run-state';
import { parsePlan } from './plan-parser';

export type Planned =
  { ok: true; steps: Omit<PlanStep, 'index' | 'status'>[] } | { ok: false; outcome: RunOutcome };

/**
 * The model calls that write a plan. A first plan that cannot be read gets one repair round, as
 * in ReAct; a revision (replan) is one call, and an unreadable one is a failure of the plan.
 */
@Injectable()
export class PlannerService {
  constructor(@Inject(ModelCallerService) private readonly model: ModelCallerService) {}

  write(run: RunState, messages: ChatMessage[]): Promise<Planned> {
    return this.ask(run, [...messages], 'plan', 2);
  }

  revise(run: RunState, messages: ChatMessage[]): Promise<Planned> {
    return this.ask(run, [...messages], 'replan', 1);
  }

  private async ask(
    run: RunState,
    messages: ChatMessage[],
    kind: 'plan' | 'replan',
    attempts: number,
  ): Promise<Planned> {
    let error = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const limit = limitBeforeStep(run, Number.POSITIVE_INFINITY);
      if (limit) return { ok: false, outcome: ended(run, limit) };
      run.step += 1;
      const started = performance.now();
      let text: string;
      try {
        const result = await this.model.complete(run, messages, { deltas: 'none' });
        text = result.text;
        const parsed = parsePlan(text, run.profile.allowed_tools, run.profile.max_steps);
        error = parsed.ok ? '' : parsed.error;
        run.trace.push({
          step: run.step,
          kind,
          ...(error ? { error } : {}),
          elapsed_ms: result.elapsedMs,
          tokens: { ...result.usage },
        });
        if (parsed.ok) return parsed;
      } catch (err) {
        const failure = modelFailure(run, err, started);
        return { ok: false, outcome: failure.outcome ?? ended(run, 'error', failure.error) };
      }
      messages.push({ role: 'assistant', content: text }, { role: 'user', content: error });
    }
    return { ok: false, outcome: ended(run, 'parse_error', error) };
  }
}
