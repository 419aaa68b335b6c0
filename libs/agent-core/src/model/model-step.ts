import type { TraceStep, Usage } from '@app/contracts';
import type { RunContext } from '../run-context';
import { ended, limitBeforeStep, type RunOutcome } from '../run-outcome';
import { callModel, type ModelCallOptions } from './model-call';
import type { ChatMessage, CompletionResult } from './model-client';
import { modelFailure } from './model-failure';
import { takeUserMessages } from './user-messages';

export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ModelStepOptions<T> extends ModelCallOptions {
  /** What the reply means; an unreadable one gets a repair turn while repairs remain. */
  read: (result: CompletionResult) => ReadResult<T>;
  /** Unreadable replies answered with a repair turn before the step ends the run with `parse_error`. */
  repairs: number;
  /** Model calls the run may make in all; unlimited when absent. */
  maxSteps?: number;
  /** Every reply traced under this kind (plan, replan, summary); without it only unreadable ones, as `parse_error`. */
  traceKind?: 'plan' | 'replan' | 'summary';
  /** A reply whose native tool call arguments were not JSON earns a repair turn too (ReAct). */
  repairsToolArguments?: boolean;
  /** The reply as replayed to the model before a repair turn; its text by default. */
  replay?: (result: CompletionResult) => ChatMessage;
}

export type ModelStep<T> =
  { ok: true; value: T; result: CompletionResult; tokens: Usage } | { ok: false; outcome: RunOutcome };

/**
 * One model step, the same for ReAct, the planner, replanning and the plan summary: the limit
 * check (deadline, cancel, budget, max_steps), step += 1, the call, its usage and trace, the
 * reading of the reply with its repair rounds, and what a failed call means for the run.
 * Repair turns are appended to `messages`.
 */
export async function modelStep<T>(
  ctx: RunContext,
  messages: ChatMessage[],
  options: ModelStepOptions<T>,
): Promise<ModelStep<T>> {
  const { run } = ctx;
  let error = '';
  for (let attempt = 0; attempt <= options.repairs; attempt++) {
    const limit = limitBeforeStep(run, options.maxSteps ?? Number.POSITIVE_INFINITY);
    if (limit) return { ok: false, outcome: ended(run, limit) };
    run.nextStep();
    if (attempt === 0) await takeUserMessages(ctx, messages, run.step >= (options.maxSteps ?? Infinity));
    const started = performance.now();
    let result: CompletionResult;
    try {
      result = await callModel(ctx, messages, options);
    } catch (err) {
      const failure = modelFailure(ctx, err, started);
      if (failure.outcome) return { ok: false, outcome: failure.outcome };
      if (!options.repairsToolArguments) return { ok: false, outcome: ended(run, 'error', failure.error) };
      error = failure.error;
      messages.push({ role: 'user', content: failure.repair });
      continue;
    }
    const tokens = { ...result.usage };
    const read = options.read(result);
    error = read.ok ? '' : read.error;
    if (options.traceKind || !read.ok) run.addTrace(traceOf(run.step, options, result, tokens, error));
    if (read.ok) return { ok: true, value: read.value, result, tokens };
    messages.push(options.replay?.(result) ?? { role: 'assistant', content: result.text });
    messages.push({ role: 'user', content: error });
  }
  return { ok: false, outcome: ended(run, 'parse_error', error) };
}

function traceOf(
  step: number,
  options: ModelStepOptions<unknown>,
  result: CompletionResult,
  tokens: Usage,
  error: string,
): TraceStep {
  return {
    step,
    kind: options.traceKind ?? 'parse_error',
    ...(error ? { error } : {}),
    elapsed_ms: result.elapsedMs,
    tokens,
  };
}
