import type { CallerDto, FunctionResult } from '@app/contracts/portable';

export type { FunctionResult } from '@app/contracts/portable';

/** Who asked for a call: an agent run, an API client, the scheduler. */
export type FunctionCaller = CallerDto;

/**
 * What a function may log through: the platform's Logger, or whatever an embedding application
 * passes. Structural, so this library needs no logging implementation.
 */
export interface FunctionLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): FunctionLogger;
}

export interface FunctionContext {
  /** Aborted on timeout and on cancel; long work must listen to it. */
  signal: AbortSignal;
  /** Epoch ms by which the call must be answered. */
  deadline: number;
  logger: FunctionLogger;
  /** The W3C trace id of the request, when the caller sent one. */
  traceId?: string;
  caller: FunctionCaller;
}

/**
 * A function the AI can call. `params` is a class whose fields carry `@Param`
 * decorators: it is reflected into the JSON-Schema-shaped definition and validates every call
 * before `execute` sees it. A thrown error goes back to the caller; nothing is retried.
 */
export interface AgentFunction<P extends object = object> {
  /** Unique, snake_case (`FUNCTION_NAME_PATTERN`). */
  name: string;
  description: string;
  params: new () => P;
  /** This function's default time limit (ms); the provider's default when absent. */
  timeoutMs?: number;
  /**
   * Sending the same call twice is safe: it only reads, or its effect happens once however often
   * it is asked. False when absent: a caller must not re-send it without its idempotency key.
   */
  idempotent?: boolean;
  execute(params: P, ctx: FunctionContext): Promise<FunctionResult>;
}
