import {
  AppError,
  FunctionFailedError,
  type FunctionCallStatus,
  type FunctionResult,
  TimeoutError,
  type Usage,
} from '@app/contracts/portable';

const RESULT_KEYS = new Set(['data', 'markdown', 'message', 'usage']);
const MAX_ERROR_CHARS = 2_000;

/**
 * What a function returned, as a FunctionResult: `{data, markdown, message}` as is, a string as
 * the message, anything else as data.
 */
export function normalizeResult(value: unknown): FunctionResult {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return { message: value };
  if (typeof value !== 'object' || Array.isArray(value)) return { data: value };
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => RESULT_KEYS.has(k))) return { data: value };
  const { data, markdown, message, usage } = value as FunctionResult;
  if (usage !== undefined && !isUsage(usage)) return { data: value };
  const result: FunctionResult = {};
  if (data !== undefined) result.data = data;
  if (markdown !== undefined) result.markdown = String(markdown);
  if (message !== undefined) result.message = String(message);
  if (usage !== undefined)
    result.usage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
  return result;
}

function isUsage(value: unknown): value is Usage {
  const tokens = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const usage = value as Partial<Usage> | null;
  return (
    typeof usage === 'object' &&
    usage !== null &&
    tokens(usage.prompt_tokens) &&
    tokens(usage.completion_tokens)
  );
}

/**
 * A function's own failure is reported to the caller with its message (the AI needs it to decide
 * what to do next); platform errors keep their code.
 */
export function toCallError(err: unknown, redact: (text: string) => string = (t) => t): AppError {
  if (err instanceof AppError) return err;
  const message =
    err instanceof Error ? err.message || err.name : typeof err === 'string' ? err : 'the function failed';
  return new FunctionFailedError(redact(truncate(message, MAX_ERROR_CHARS)));
}

export function callStatus(error?: AppError): FunctionCallStatus {
  if (!error) return 'success';
  if (error.code === 'timeout' || error.code === 'cancelled') return error.code;
  return 'error';
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Rejects with the signal's reason as soon as it aborts, whether or not the work listens. */
export function raceAbort<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(work)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Aborts `controller` after `afterMs` with the timeout a caller reads (naming the function and
 * its limit, `limitMs`, which may be longer than the budget actually given); returns the disarm.
 */
export function abortOnTimeout(
  controller: AbortController,
  name: string,
  afterMs: number,
  limitMs = afterMs,
): () => void {
  // Built only when it fires: an error captures its stack, and most calls end in time.
  const timer = setTimeout(
    () => controller.abort(new TimeoutError(`function '${name}' did not finish within ${limitMs} ms`)),
    afterMs,
  );
  return () => clearTimeout(timer);
}
