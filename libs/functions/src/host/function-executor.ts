import { randomUUID } from 'node:crypto';
import {
  AppError,
  type FnExecReply,
  type FnExecRequest,
  type FunctionCallEvent,
  type FunctionResult,
  FunctionFailedError,
  NotFoundError,
  UnavailableError,
} from '@app/contracts';
import { type Logger, Metrics } from '@app/observability';
import { isAllowed } from '../allow-list';
import type { AgentFunction, FunctionCaller, FunctionContext, FunctionLogger } from '../agent-function';
import { summarizeParams } from '../calls/params-summary';
import { parseParams } from '../params/parse-params';
import { callBudgetMs, callLimitMs, traceIdOf } from './call-budget';
import { abortOnTimeout, callStatus, normalizeResult, raceAbort, toCallError } from './call-outcome';
import type { ConcurrencyLimiter } from './concurrency-limiter';
import type { FunctionRegistry } from './function-registry';
import type { RecordedOutcomes } from './recorded-outcomes';

interface CallInfo {
  callId: string;
  deadline: number;
  caller?: FunctionCaller;
  traceparent?: string;
  idempotencyKey?: string;
}

/** A call that has ended, as its record tells it. */
interface FinishedCall {
  id: string;
  name: string;
  request: FnExecRequest;
  elapsed_ms: number;
  error?: AppError;
}

export interface ExecutorOptions {
  registry: FunctionRegistry;
  limiter: ConcurrencyLimiter;
  logger: Logger;
  provider: string;
  instance: string;
  redact: (text: string) => string;
  /** Larger results are refused: they would not fit in one bus message. */
  maxResultBytes: number;
  onFinished: (event: FunctionCallEvent) => void;
  /** Where calls with an idempotency key record their outcome; without it such calls are refused. */
  outcomes?: RecordedOutcomes;
}

/**
 * Runs one call: allow-list, lookup, budget, validation, a concurrency slot, then `execute` with
 * an AbortSignal that fires on timeout and cancel. Every outcome becomes an FnExecReply and a
 * FunctionCall event; nothing is retried.
 */
export class FunctionExecutor {
  private readonly running = new Map<string, AbortController>();
  /** Calls taken and not yet recorded (a call is recorded just after its reply is sent). */
  private unrecorded = 0;
  private idleWaiters: (() => void)[] = [];

  private readonly registry: FunctionRegistry;
  private readonly limiter: ConcurrencyLimiter;
  private readonly logger: Logger;
  private readonly provider: string;
  private readonly instance: string;
  private readonly redact: (text: string) => string;
  private readonly maxResultBytes: number;
  private readonly onFinished: (event: FunctionCallEvent) => void;
  private readonly outcomes?: RecordedOutcomes;

  constructor(options: ExecutorOptions) {
    this.registry = options.registry;
    this.limiter = options.limiter;
    this.logger = options.logger;
    this.provider = options.provider;
    this.instance = options.instance;
    this.redact = options.redact;
    this.maxResultBytes = options.maxResultBytes;
    this.onFinished = options.onFinished;
    this.outcomes = options.outcomes;
  }

  get inFlight(): number {
    return this.running.size;
  }

  async execute(name: string, request: FnExecRequest, traceparent?: string): Promise<FnExecReply> {
    const started = performance.now();
    this.unrecorded += 1;
    const callId = request.call_id ?? randomUUID();
    let error: AppError | undefined;
    let result: FunctionResult = {};
    try {
      result = await this.run(name, request, callId, traceparent);
    } catch (err) {
      error = toCallError(err, this.redact);
    }
    const elapsed_ms = Math.round(performance.now() - started);
    // The reply first: the bus sends it within this turn of the event loop, its record, metrics
    // and log line after it, so that they are no part of the caller's wait.
    setImmediate(() => this.record({ id: callId, name, request, elapsed_ms, error }));
    return error
      ? { status: 'error', error: error.toBody(), elapsed_ms }
      : { status: 'success', result, elapsed_ms };
  }

  /** Aborts a running call; false when this provider is not running it. */
  cancel(callId: string, reason = new AppError('cancelled', 'the caller cancelled the call')): boolean {
    const controller = this.running.get(callId);
    controller?.abort(reason);
    return controller !== undefined;
  }

  abortAll(reason: AppError): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  /** Resolves once every call taken has ended and been recorded. */
  whenIdle(): Promise<void> {
    return this.unrecorded === 0
      ? Promise.resolve()
      : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(
    name: string,
    request: FnExecRequest,
    callId: string,
    traceparent?: string,
  ): Promise<FunctionResult> {
    if (request.allowed_tools && !isAllowed(request.allowed_tools, name)) {
      throw new AppError('forbidden', `function '${name}' is not among the caller's allowed tools`);
    }
    const entry = this.registry.get(name);
    if (!entry) throw new NotFoundError('function', name);
    const functionTimeout = entry.definition.timeout_ms ?? Number.POSITIVE_INFINITY;
    const budget = callBudgetMs(request, functionTimeout);
    const limit = callLimitMs(request, functionTimeout);
    const params = parseParams(entry.fn.params, request.params);
    if (this.running.has(callId)) throw new AppError('conflict', `call id '${callId}' is already running`);
    const call: CallInfo = {
      callId,
      deadline: Date.now() + budget,
      caller: request.caller,
      traceparent,
      idempotencyKey: request.idempotency_key,
    };
    return this.invoke(entry.fn, params, budget, Number.isFinite(limit) ? limit : budget, call);
  }

  /** Waits for a slot and runs the function; the signal aborts at the budget's end or on cancel. */
  private async invoke(
    fn: AgentFunction,
    params: object,
    budget: number,
    limit: number,
    call: CallInfo,
  ): Promise<FunctionResult> {
    const controller = new AbortController();
    const disarm = abortOnTimeout(controller, fn.name, budget, limit);
    this.running.set(call.callId, controller);
    try {
      const release = await this.limiter.acquire(controller.signal);
      try {
        const ctx = this.context(fn.name, controller.signal, call);
        const work = async () =>
          this.checkSize(normalizeResult(await raceAbort(() => fn.execute(params, ctx), controller.signal)));
        return await this.once(fn, params, call, controller.signal, work);
      } finally {
        release();
      }
    } finally {
      disarm();
      this.running.delete(call.callId);
    }
  }

  /** A keyed call runs at most once per key; one without a key just runs. */
  private once(
    fn: AgentFunction,
    params: object,
    call: CallInfo,
    signal: AbortSignal,
    work: () => Promise<FunctionResult>,
  ): Promise<FunctionResult> {
    const key = call.idempotencyKey;
    if (key === undefined) return work();
    if (!this.outcomes) throw new UnavailableError('this provider cannot record keyed calls');
    const { deadline, caller } = call;
    const idempotent = fn.idempotent ?? false;
    return this.outcomes.once(
      { name: fn.name, key, principal: caller?.principal, params, idempotent, deadline, signal },
      work,
    );
  }

  private context(name: string, signal: AbortSignal, call: CallInfo): FunctionContext {
    const traceId = traceIdOf(call.traceparent);
    const parent = this.logger;
    let logger: FunctionLogger | undefined;
    return {
      signal,
      deadline: call.deadline,
      traceId,
      caller: call.caller ?? {},
      // made on first use: most functions never log (a sandboxed one logs through its sandbox)
      get logger() {
        return (logger ??= parent.child({ fn: name, call_id: call.callId, trace_id: traceId }));
      },
    };
  }

  private checkSize(result: FunctionResult): FunctionResult {
    const bytes = Buffer.byteLength(JSON.stringify(result) ?? '');
    if (bytes > this.maxResultBytes) {
      throw new FunctionFailedError(
        `the result is too large to return (${bytes} bytes; the limit is ${this.maxResultBytes})`,
      );
    }
    return result;
  }

  /** The call's log line, metrics and record, once its reply is on its way; a stop waits for them. */
  private record(call: FinishedCall): void {
    try {
      this.report(call);
    } finally {
      this.unrecorded -= 1;
      if (this.unrecorded === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private report({ id, name, request, elapsed_ms, error }: FinishedCall): void {
    const status = callStatus(error);
    const fields = { fn: name, call_id: id, status, elapsed_ms, code: error?.code };
    if (error) this.logger.info(`function call failed: ${error.message}`, fields);
    else this.logger.debug('function call', fields);
    Metrics.functionCalls().inc({ function: name, status });
    Metrics.functionDuration().observe({ function: name }, elapsed_ms / 1_000);
    this.onFinished({
      id,
      name,
      provider: this.provider,
      instance: this.instance,
      caller: request.caller,
      status,
      error_code: error?.code,
      error: error?.message.slice(0, 2_000),
      elapsed_ms,
      params_summary: summarizeParams(request.params, this.redact),
      finished_at: Date.now(),
    });
  }
}
