import { randomUUID } from 'node:crypto';
import { AppError, type FnExecReply, type FunctionDefinition, TimeoutError } from '@app/contracts';
import {
  type AgentFunction,
  describeFunction,
  type FunctionLogger,
  normalizeResult,
  raceAbort,
  toCallError,
  validateParams,
} from '@app/functions';

export const EMBEDDED_PROVIDER = 'embedded';
export const DEFAULT_FUNCTION_TIMEOUT_MS = 30_000;

export interface CallOptions {
  /** Aborts the call (the run was cancelled or ran out of time). */
  signal?: AbortSignal;
  /** Overrides the function's own time limit. */
  timeoutMs?: number;
}

/**
 * The application's functions, run in its own process: the same validation as the platform's
 * providers (`validateParams`), an AbortSignal that fires on timeout and on the caller's abort,
 * and every failure answered as an error reply (never thrown), so the model reads why.
 */
export class InProcessFunctions {
  private readonly byName = new Map<string, { fn: AgentFunction; definition: FunctionDefinition }>();

  constructor(
    functions: readonly AgentFunction[],
    private readonly logger: FunctionLogger = silentLogger,
    defaultTimeoutMs = DEFAULT_FUNCTION_TIMEOUT_MS,
  ) {
    for (const fn of functions) {
      if (this.byName.has(fn.name)) throw new Error(`function '${fn.name}' is given twice`);
      this.byName.set(fn.name, { fn, definition: describeFunction(fn, EMBEDDED_PROVIDER, defaultTimeoutMs) });
    }
  }

  definitions(): FunctionDefinition[] {
    return [...this.byName.values()].map((entry) => entry.definition);
  }

  async call(name: string, params: unknown, options: CallOptions = {}): Promise<FnExecReply> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const result = await this.run(name, params, options);
      return { status: 'success', result, elapsed_ms: elapsed() };
    } catch (err) {
      return { status: 'error', error: toCallError(err).toBody(), elapsed_ms: elapsed() };
    }
  }

  private async run(name: string, input: unknown, options: CallOptions) {
    const entry = this.byName.get(name);
    if (!entry) throw new AppError('not_found', `function '${name}' does not exist`);
    const params = validateParams(entry.fn.params, input);
    const limit = options.timeoutMs ?? entry.definition.timeout_ms ?? DEFAULT_FUNCTION_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new TimeoutError(`function '${name}' did not finish within ${limit} ms`)),
      limit,
    );
    const onAbort = () => controller.abort(cancelled(options.signal?.reason));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const callId = randomUUID();
      const ctx = {
        signal: controller.signal,
        deadline: Date.now() + limit,
        logger: this.logger.child({ fn: name, call_id: callId }),
        caller: {},
      };
      return normalizeResult(await raceAbort(() => entry.fn.execute(params, ctx), controller.signal));
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function cancelled(reason: unknown): AppError {
  return reason instanceof AppError ? reason : new AppError('cancelled', 'the caller cancelled the call');
}

const silentLogger: FunctionLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
