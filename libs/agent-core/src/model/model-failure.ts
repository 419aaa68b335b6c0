import type { ErrorBody } from '@app/contracts';
import { BudgetRefused, HookFailed, ModelError } from '../errors';
import type { RunContext } from '../run-context';
import { ended, type RunOutcome } from '../run-outcome';

/**
 * What a failed model call means for the run (a `HookFailed` is thrown on): stopped (deadline or cancel), ended with `error`,
 * or (a tool call whose arguments were not JSON) an unreadable reply that earns a repair round.
 */
export function modelFailure(
  { run, prompts }: RunContext,
  err: unknown,
  started: number,
):
  | { outcome: RunOutcome; repair?: undefined; error?: undefined }
  | { outcome?: undefined; repair: string; error: string } {
  // a hook around the call stopped the run: not the model's failure
  if (err instanceof HookFailed) throw err;
  const elapsed_ms = Math.round(performance.now() - started);
  if (run.abortReason) return { outcome: ended(run, run.abortReason) };
  // never sent: its worst case did not fit in a budget
  if (err instanceof BudgetRefused) return { outcome: ended(run, 'budget', err.message) };
  const code = err instanceof ModelError ? err.code : 'llm_error';
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ModelError && err.code === 'llm_bad_response' && /tool call/.test(message)) {
    run.addTrace({ step: run.step, kind: 'parse_error', error: message, elapsed_ms });
    return {
      repair: prompts.render('repair_tool_arguments', { error: message }),
      error: message,
    };
  }
  run.addTrace({ step: run.step, kind: 'llm_error', error: `${code}: ${message}`, elapsed_ms });
  const outcome = ended(run, 'error', `${code}: ${message}`);
  return { outcome: err instanceof ModelError ? { ...outcome, failure: upstreamFailure(err) } : outcome };
}

/**
 * A model that is not configured cannot serve any run (503); one that could not be reached, or
 * refused the request (its key, its limits, the request itself), is a failed upstream (502).
 * The details carry the provider's own status and error code.
 */
function upstreamFailure(err: ModelError): ErrorBody {
  if (err.code === 'llm_not_configured') {
    return {
      code: 'unavailable',
      message: `the model is not configured: ${err.message}`,
      details: { part: 'llm' },
    };
  }
  return {
    code: 'upstream_error',
    message: `the model call failed: ${err.message}`,
    details: {
      llm_error: err.code,
      ...(err.status !== undefined ? { status: err.status } : {}),
      ...(err.providerCode ? { provider_code: err.providerCode } : {}),
    },
  };
}
