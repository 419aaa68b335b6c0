import type { FunctionCallOutcome, FunctionCallRequest, Functions } from '@app/agent-core/portable';
import { AppError, type FunctionDefinition, type FunctionResult } from '@app/contracts/portable';
import {
  abortOnTimeout,
  type AgentFunction,
  describeFunction,
  type FunctionLogger,
  isAllowed,
  normalizeResult,
  raceAbort,
  toCallError,
  parseParams,
} from '@app/functions/portable';

export const EMBEDDED_PROVIDER = 'embedded';
export const DEFAULT_FUNCTION_TIMEOUT_MS = 30_000;

interface Entry {
  fn: AgentFunction;
  definition: FunctionDefinition;
}

/**
 * The application's functions, run in its own process (the run engine's Functions): the same
 * validation as the platform's providers (`parseParams`), an AbortSignal that fires at the
 * shorter of the call's and the function's time limit and when the run stops, and every failure
 * answered as an error outcome (never thrown), so the model reads why.
 */
export class InProcessFunctions implements Functions {
  private readonly byName = new Map<string, Entry>();
  private readonly sorted: FunctionDefinition[];

  constructor(
    functions: readonly AgentFunction[],
    private readonly logger: FunctionLogger = silentLogger,
  ) {
    for (const fn of functions) {
      if (this.byName.has(fn.name)) throw new Error(`function '${fn.name}' is given twice`);
      const definition = describeFunction(fn, EMBEDDED_PROVIDER, DEFAULT_FUNCTION_TIMEOUT_MS);
      this.byName.set(fn.name, { fn, definition });
    }
    this.sorted = [...this.byName.values()]
      .map((entry) => entry.definition)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async catalogue(): Promise<readonly FunctionDefinition[]> {
    return this.sorted;
  }

  async find(name: string): Promise<FunctionDefinition | undefined> {
    return this.byName.get(name)?.definition;
  }

  async call(request: FunctionCallRequest): Promise<FunctionCallOutcome> {
    try {
      return { status: 'success', result: await this.run(request) };
    } catch (err) {
      return { status: 'error', error: toCallError(err).toBody() };
    }
  }

  private async run(request: FunctionCallRequest): Promise<FunctionResult> {
    const { name, signal } = request;
    if (request.allowedTools && !isAllowed(request.allowedTools, name))
      throw new AppError('forbidden', `function '${name}' is not among the run's allowed tools`);
    const entry = this.byName.get(name);
    if (!entry) throw new AppError('not_found', `function '${name}' does not exist`);
    const params = parseParams(entry.fn.params, request.args);
    const limit = Math.min(request.timeoutMs, entry.definition.timeout_ms ?? Number.POSITIVE_INFINITY);
    const controller = new AbortController();
    const disarm = abortOnTimeout(controller, name, limit);
    const onAbort = () =>
      controller.abort(new AppError('cancelled', 'the run stopped before the call ended'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const ctx = {
        signal: controller.signal,
        deadline: Date.now() + limit,
        logger: this.logger.child({ fn: name, call_id: request.callId }),
        caller: request.caller,
      };
      return normalizeResult(await raceAbort(() => entry.fn.execute(params, ctx), controller.signal));
    } finally {
      disarm();
      signal.removeEventListener('abort', onAbort);
    }
  }
}

const silentLogger: FunctionLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
