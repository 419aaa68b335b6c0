import { LlmError } from '../llm/llm.errors';
import { ended, type RunOutcome } from './run-endings';
import type { RunState } from './run-state';

/**
 * What a failed model call means for the run: stopped (deadline or cancel), ended with `error`,
 * or (a tool call whose arguments were not JSON) an unreadable reply that earns a repair round.
 */
export function modelFailure(
  run: RunState,
  err: unknown,
  started: number,
):
  | { outcome: RunOutcome; repair?: undefined; error?: undefined }
  | { outcome?: undefined; repair: string; error: string } {
  const elapsed_ms = Math.round(performance.now() - started);
  if (run.abortReason) return { outcome: ended(run, run.abortReason) };
  const code = err instanceof LlmError ? err.code : 'llm_error';
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof LlmError && err.code === 'llm_bad_response' && /tool call/.test(message)) {
    run.trace.push({ step: run.step, kind: 'parse_error', error: message, elapsed_ms });
    return {
      repair: `Your reply could not be read: ${message}. Call the function again with a JSON object as its arguments.`,
      error: message,
    };
  }
  run.trace.push({ step: run.step, kind: 'llm_error', error: `${code}: ${message}`, elapsed_ms });
  return { outcome: ended(run, 'error', `${code}: ${message}`) };
}
