import { Inject, Injectable } from '@nestjs/common';
import { modelChoiceOf } from '../agents/agent-profile';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { ChatMessage, CompletionResult, NativeTool } from '@app/llm';
import { LlmRegistry } from './llm-registry.service';
import type { RunState } from '../runs/run-state';

export interface ModelCallOptions {
  tools?: NativeTool[];
  /**
   * `all`: the whole reply is the user's answer, streamed as it arrives; `none`: it is not, or not
   * yet known to be (a ReAct step may end in calls, and its text is then a thought).
   */
  deltas: 'all' | 'none';
}

/**
 * One LLM call of a run: the profile's endpoint and model, the run's AbortSignal (deadline and
 * cancel), usage added to the run, text deltas published while a streaming run waits.
 */
@Injectable()
export class ModelCallerService {
  constructor(
    @Inject(LlmRegistry) private readonly registry: LlmRegistry,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
  ) {}

  async complete(
    run: RunState,
    messages: ChatMessage[],
    options: ModelCallOptions,
  ): Promise<CompletionResult> {
    const { profile } = run;
    const provider = this.registry.forProfile(modelChoiceOf(profile));
    const step = run.step;
    const onDelta =
      run.identity.stream && options.deltas === 'all'
        ? (text: string) => this.events.emit(run, 'delta', { step, text })
        : undefined;
    const result = await provider.complete({
      model: profile.model,
      messages,
      tools: options.tools,
      temperature: profile.temperature,
      maxTokens: profile.max_tokens,
      signal: run.signal,
      onDelta,
    });
    run.addUsage(result.usage);
    return result;
  }
}
