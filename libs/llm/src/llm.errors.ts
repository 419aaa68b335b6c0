import { ModelError } from '@app/agent-core/portable';

export type LlmErrorCode =
  | 'llm_timeout'
  | 'llm_rate_limited'
  | 'llm_unavailable'
  | 'llm_bad_response'
  | 'llm_bad_request'
  | 'llm_auth'
  | 'llm_aborted'
  | 'llm_not_configured';

/**
 * Every failure of a provider, with a stable code: the run engine's `ModelError`. It carries no
 * `cause`: an SDK error can hold request details, and this error travels into logs and traces.
 */
export class LlmError extends ModelError {
  override name = 'LlmError';
  declare readonly code: LlmErrorCode;

  constructor(
    code: LlmErrorCode,
    message: string,
    status?: number,
    /** The provider's own error code, e.g. OpenAI's `invalid_api_key`, Anthropic's `authentication_error`. */
    providerCode?: string,
  ) {
    super(code, message, status, providerCode);
  }

  /** True when the same request may succeed later (after the SDK's own retries ran out). */
  get retryable(): boolean {
    return this.isRecoverable;
  }
}

export function codeForStatus(status: number): LlmErrorCode {
  if (status === 401 || status === 403) return 'llm_auth';
  if (status === 429) return 'llm_rate_limited';
  if (status === 408) return 'llm_timeout';
  if (status >= 500 || status === 409) return 'llm_unavailable';
  return 'llm_bad_request';
}

/** Replaces every occurrence of a secret. Tiny placeholder keys are skipped: hiding "x" would mangle the text. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>(
    (redacted, secret) => (secret && secret.length >= 4 ? redacted.replaceAll(secret, '***') : redacted),
    text,
  );
}

export function requireToolCallId(message: { toolCallId?: string }): string {
  if (!message.toolCallId) {
    throw new LlmError('llm_bad_request', 'a tool message needs the toolCallId it answers');
  }
  return message.toolCallId;
}
