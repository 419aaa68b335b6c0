import type { ErrorBody, ErrorCode } from '@app/contracts';

/** What a failed call carries: the API's `code`; `unavailable` with status 0 when it was never reached. */
export type ClientErrorCode = ErrorCode;

/**
 * The one error the client throws for a failed call: the API's `{error: {code, message, details}}`
 * with the HTTP status, and `retryAfter` (seconds) from a 429's `Retry-After`. A gateway that cannot
 * be reached is `unavailable` with status 0.
 */
export class AgentChassisError extends Error {
  readonly code: ClientErrorCode;
  readonly details?: unknown;
  readonly status: number;
  readonly retryAfter?: number;

  constructor(
    init: { code: ClientErrorCode; message: string; status: number; details?: unknown; retryAfter?: number },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.name = 'AgentChassisError';
    this.code = init.code;
    this.status = init.status;
    if (init.details !== undefined) this.details = init.details;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
  }

  /** The API's error body, as it came. */
  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
  502: 'function_error',
  503: 'unavailable',
  504: 'timeout',
};

/** Builds the error of a non-2xx response; a body that is not the API's (a proxy's page) still gets a code. */
export async function errorFromResponse(res: Response): Promise<AgentChassisError> {
  const text = await res.text().catch(() => '');
  let body: Partial<ErrorBody> | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: Partial<ErrorBody> };
    if (parsed && typeof parsed.error === 'object' && parsed.error) body = parsed.error;
  } catch {
    body = undefined;
  }
  const code = (typeof body?.code === 'string' ? body.code : undefined) ?? fallbackCode(res.status);
  const message =
    typeof body?.message === 'string'
      ? body.message
      : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${text ? `: ${text.slice(0, 200)}` : ''}`;
  return new AgentChassisError({
    code: code as ErrorCode,
    message,
    status: res.status,
    details: body?.details,
    retryAfter: parseRetryAfter(res.headers.get('retry-after')),
  });
}

function fallbackCode(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}

/** `Retry-After` is seconds or an HTTP date; either becomes whole seconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
