import { randomUUID } from 'node:crypto';
import { type Bus, type BusHeaders, NoRespondersError } from '@app/bus';
import {
  AppError,
  type FnCancel,
  type FnExecReply,
  type FnExecRequest,
  FUNCTION_NAME_PATTERN,
  NotFoundError,
  Subjects,
  TimeoutError,
  UnavailableError,
} from '@app/contracts';
import type { FunctionCaller } from '../agent-function';

export interface CallOptions {
  /** The whole call's time limit; it becomes the absolute deadline the provider honours. */
  timeoutMs: number;
  caller?: FunctionCaller;
  allowedTools?: string[];
  traceparent?: string;
  /** Aborting it cancels the call at its provider. */
  signal?: AbortSignal;
  callId?: string;
}

/**
 * Calls a function over the bus. Resolves with the provider's FnExecReply (`error` included:
 * a failed function is the caller's to handle, never retried). Throws only when no provider
 * judged the call: `unavailable` (nobody serves the name right now), `not_found` (not a function
 * name), `timeout` (no answer by the deadline), `cancelled`.
 */
export class FunctionClient {
  constructor(private readonly bus: Bus) {}

  async call(name: string, params: Record<string, unknown>, options: CallOptions): Promise<FnExecReply> {
    if (!FUNCTION_NAME_PATTERN.test(name)) throw new NotFoundError('function', name);
    if (options.signal?.aborted) throw cancelled();
    const request: FnExecRequest = {
      params,
      timeout_ms: options.timeoutMs,
      deadline_ms: Date.now() + options.timeoutMs,
      caller: options.caller,
      allowed_tools: options.allowedTools,
      call_id: options.callId ?? randomUUID(),
    };
    const headers: BusHeaders | undefined = options.traceparent
      ? { traceparent: options.traceparent }
      : undefined;
    const reply = this.bus.request<FnExecReply>(Subjects.fnExec(name), request, {
      timeoutMs: options.timeoutMs,
      headers,
    });
    try {
      return await this.untilAborted(reply, request.call_id!, options.signal);
    } catch (err) {
      throw transportError(name, err, options.timeoutMs);
    }
  }

  private untilAborted(
    reply: Promise<FnExecReply>,
    callId: string,
    signal?: AbortSignal,
  ): Promise<FnExecReply> {
    if (!signal) return reply;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const body: FnCancel = { call_id: callId };
        this.bus.publish(Subjects.fnCancel, body);
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reply.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}

function cancelled(): AppError {
  return new AppError('cancelled', 'the call was cancelled');
}

function transportError(name: string, err: unknown, timeoutMs: number): unknown {
  if (!(err instanceof AppError)) return err;
  // Nobody subscribed: whether the name never existed or its provider is down is the catalogue's to say.
  if (err instanceof NoRespondersError) {
    return new UnavailableError(`function '${name}' is unavailable: no provider serves it right now`, {
      part: 'function provider',
      function: name,
    });
  }
  if (err.code === 'timeout')
    return new TimeoutError(`function '${name}' gave no answer within ${timeoutMs} ms`);
  return err;
}
