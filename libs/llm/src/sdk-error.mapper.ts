import { codeForStatus, LlmError, redact, type LlmErrorCode } from './llm.errors';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes both official SDKs export under the same names. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

export interface ErrorContext {
  provider: string;
  secrets: readonly (string | undefined)[];
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Turns whatever an SDK threw into an LlmError whose message holds no secret. */
export function toLlmError(error: unknown, sdk: SdkErrorClasses, context: ErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  const fail = (code: LlmErrorCode, message: string, status?: number, providerCode?: string) =>
    new LlmError(code, redact(`${context.provider}: ${message}`, context.secrets), status, providerCode);
  if (error instanceof sdk.APIUserAbortError || context.signal?.aborted) {
    return fail('llm_aborted', 'request aborted by the caller');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return fail('llm_timeout', `no response within ${context.timeoutMs} ms`);
  }
  if (error instanceof sdk.APIConnectionError) {
    return fail('llm_unavailable', `cannot reach the server (${error.message})`);
  }
  const status = (error as { status?: unknown }).status;
  if (error instanceof sdk.APIError && typeof status === 'number') {
    return fail(codeForStatus(status), error.message, status, providerCodeOf(error));
  }
  return fail('llm_bad_response', error instanceof Error ? error.message : String(error));
}

/** OpenAI's errors carry `code` (or only `type`); Anthropic's carry the body `{error: {type}}`. */
function providerCodeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; type?: unknown; error?: { error?: { type?: unknown } } };
  const code = e.code ?? e.type ?? e.error?.error?.type;
  return typeof code === 'string' && code.length <= 64 ? code : undefined;
}
