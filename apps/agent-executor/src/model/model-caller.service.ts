import { Inject, Injectable } from '@nestjs/common';
import { modelChoiceOf } from '../agents/agent-profile';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { ChatMessage, CompletionResult, NativeTool } from '../llm/llm-provider';
import { LlmRegistry } from './llm-registry.service';
import { CallFreeDeltas } from './delta-filter';
import type { RunState } from '../runs/run-state';

export interface ModelCallOptions {
  tools?: NativeTool[];
  /** `all`: every text delta; `prose`: up to a `<call`; `none`: the reply is not for the user. */
  deltas: 'all' | 'prose' | 'none';
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
    const filter = this.deltaSink(run, step, options.deltas);
    const result = await provider.complete({
      model: profile.model,
      messages,
      tools: options.tools,
      temperature: profile.temperature,
      maxTokens: profile.max_tokens,
      signal: run.signal,
      onDelta: filter ? (text) => filter.push(text) : undefined,
    });
    filter?.flush();
    run.addUsage(result.usage);
    return result;
  }

  private deltaSink(run: RunState, step: number, mode: ModelCallOptions['deltas']) {
    if (!run.id.stream || mode === 'none') return undefined;
    const emit = (text: string) => this.events.emit(run, 'delta', { step, text });
    return mode === 'prose' ? new CallFreeDeltas(emit) : { push: emit, flush: () => undefined };
  }
}
