import { randomUUID } from 'node:crypto';
import { type Bus, type BusHeaders, NoRespondersError, ResponderGoneError } from '@app/bus';
import {
  AppError,
  FN_SILENCE_MS,
  type FnExecProgress,
  type FnCancel,
  type FnExecReply,
  type FnExecRequest,
  FUNCTION_NAME_PATTERN,
  NotFoundError,
  Routes,
  Events,
  TimeoutError,
  UnavailableError,
} from '@app/contracts';
import type { FunctionCaller } from '../agent-function';

/**
 * How long past a call's time limit the client waits for the provider's own timeout reply, so a
 * call that ran out of time is told as the function's `timeout` outcome rather than as silence.
 */
const PROVIDER_TIMEOUT_REPLY_GRACE_MS = 500;

export interface CallOptions {
  /** The whole call's time limit; it becomes the absolute deadline the provider honours. */
  timeoutMs: number;
  caller?: FunctionCaller;
  allowedTools?: string[];
  traceparent?: string;
  /** Told which provider instance took the call, once it has. */
  onAccepted?: (provider: FnExecProgress) => void;
  /** Aborting it cancels the call at its provider. */
  signal?: AbortSignal;
  callId?: string;
  /** Sent again with the same key, the call is not run again: the first attempt's outcome answers. */
  idempotencyKey?: string;
}

/**
 * The call reached no provider (nobody serves the name, or NATS is unreachable): nothing ran, so
 * a caller that must not lose the call (a scheduled fire) may send it again.
 */
export class CallNotDeliveredError extends UnavailableError {
  constructor(name: string, why: string) {
    super(`function '${name}' is unavailable: ${why}`, { part: 'function provider', function: name });
  }
}

/**
 * Nobody subscribes to the name right now: either it never existed or every provider of it is
 * down; which one is the catalogue's to say. Not delivered, so a scheduled fire may send it again.
 */
export class NoProviderError extends CallNotDeliveredError {
  constructor(name: string) {
    super(name, 'no provider serves it right now');
  }
}

/**
 * The provider the call was sent to did not take it within `FN_SILENCE_MS` (gone with its NATS
 * server, or stalled): most likely it never got it, but a stalled one may still run it. A caller
 * that sent it with an idempotency key may send it again: the key lets one attempt run.
 */
export class CallNotTakenError extends UnavailableError {
  constructor(name: string) {
    super(
      `function '${name}' is unavailable: the provider it was sent to did not take the call within ${FN_SILENCE_MS} ms (stalled or gone)`,
      { part: 'function-provider', function: name },
    );
  }
}

/** The provider that took the call stopped answering (it died with the call): nothing more will come. */
export class ProviderGoneError extends UnavailableError {
  constructor(name: string, provider: FnExecProgress) {
    super(
      `function '${name}' is unavailable: its provider ${provider.provider} (${provider.instance}) stopped answering while it ran`,
      { part: provider.provider, instance: provider.instance, function: name },
    );
  }
}

/**
 * Calls a function over the bus. Resolves with the provider's FnExecReply (`error` included:
 * a failed function is the caller's to handle, never retried). Throws only when no provider
 * judged the call: `unavailable` (nobody serves the name right now), `not_found` (not a function
 * name), `timeout` (no answer by the deadline), `cancelled`. The provider that takes a call
 * sends heartbeats on its reply inbox: one silent for `FN_SILENCE_MS` is gone, and the call fails
 * at once with `unavailable` (`ProviderGoneError`) rather than at its timeout; so does a call the
 * provider it was delivered to does not take within `FN_SILENCE_MS` (its event loop blocked).
 */
export class FunctionClient {
  constructor(private readonly bus: Bus) {}

  async call(name: string, params: Record<string, unknown>, options: CallOptions): Promise<FnExecReply> {
    if (!FUNCTION_NAME_PATTERN.test(name)) throw new NotFoundError('function', name);
    if (options.signal?.aborted) throw cancelled();
    if (!this.bus.connected) throw new CallNotDeliveredError(name, 'NATS is unreachable');
    const request: FnExecRequest = {
      params,
      timeout_ms: options.timeoutMs,
      deadline_ms: Date.now() + options.timeoutMs,
      caller: options.caller,
      allowed_tools: options.allowedTools,
      call_id: options.callId ?? randomUUID(),
      ...(options.idempotencyKey ? { idempotency_key: options.idempotencyKey } : {}),
    };
    const headers: BusHeaders | undefined = options.traceparent
      ? { traceparent: options.traceparent }
      : undefined;
    const reply = this.bus.request(Routes.fnExec(name), request, {
      timeoutMs: options.timeoutMs + PROVIDER_TIMEOUT_REPLY_GRACE_MS,
      headers,
      progress: {
        silenceMs: FN_SILENCE_MS,
        acceptMs: FN_SILENCE_MS,
        onProgress: accepted(options.onAccepted),
      },
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
        this.bus.publish(Events.fnCancel, body);
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reply.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}

/** Calls `listener` with the first progress message only: the one saying who took the call. */
function accepted(listener?: (provider: FnExecProgress) => void): ((progress: unknown) => void) | undefined {
  if (!listener) return undefined;
  let told = false;
  return (progress) => {
    if (told) return;
    told = true;
    listener(progress as FnExecProgress);
  };
}

function cancelled(): AppError {
  return new AppError('cancelled', 'the call was cancelled');
}

function transportError(name: string, err: unknown, timeoutMs: number): unknown {
  if (err instanceof ResponderGoneError)
    return err.progress === undefined
      ? new CallNotTakenError(name)
      : new ProviderGoneError(name, err.progress as FnExecProgress);
  if (!(err instanceof AppError)) return err;
  if (err instanceof NoRespondersError) return new NoProviderError(name);
  if (err.code === 'timeout')
    return new TimeoutError(`function '${name}' gave no answer within ${timeoutMs} ms`);
  return err;
}
