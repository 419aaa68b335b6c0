import { costOf } from '../cost';
import type { RunContext } from '../run-context';
import type { ChatMessage, CompletionRequest, CompletionResult, NativeTool } from './model-client';
import { holdSpend } from './spend-hold';

export interface ModelCallOptions {
  tools?: NativeTool[];
  /**
   * `all`: the whole reply is the user's answer, streamed as it arrives; `none`: it is not, or not
   * yet known to be (a ReAct step may end in calls, and its text is then a thought).
   */
  deltas: 'all' | 'none';
}

/**
 * One model call of a run: the agent's model options, the run's AbortSignal (deadline and
 * cancel), the before/after hooks, the USD budgets held before it is sent (spend-hold.ts), usage
 * added to the run, text deltas emitted while a streaming run waits. Rejects with whatever the
 * model client threw, or `BudgetRefused` for a call not sent.
 */
export async function callModel(
  ctx: RunContext,
  messages: ChatMessage[],
  options: ModelCallOptions,
): Promise<CompletionResult> {
  const { run, hooks } = ctx;
  const step = run.step;
  const onDelta =
    run.streaming && options.deltas === 'all'
      ? (text: string) => run.emit('delta', { step, text })
      : undefined;
  const request: CompletionRequest = {
    model: run.definition.model,
    messages,
    tools: options.tools,
    temperature: run.definition.temperature,
    maxTokens: run.definition.max_tokens,
    signal: run.signal,
    onDelta,
    cacheKey: run.identity.sessionId || run.runId,
  };
  const replayed = ctx.replay?.modelStep(step);
  if (replayed) {
    // Journaled already: neither sent to the model again nor journaled twice.
    run.addUsage(replayed.usage);
    await hooks?.afterLlm?.(run, replayed);
    return replayed;
  }
  await hooks?.beforeLlm?.(run, request);
  const hold = await holdSpend(ctx, request);
  let result: CompletionResult;
  try {
    result = await ctx.model.complete(request);
  } catch (err) {
    hold.release();
    throw err;
  }
  hold.settle(result.usage);
  run.addUsage(result.usage);
  if (run.price) ctx.metrics?.modelCost?.(run, costOf(result.usage, run.price));
  await hooks?.afterLlm?.(run, result);
  await ctx.journal?.modelStepCompleted(run, { step, result });
  return result;
}
