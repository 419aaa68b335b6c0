import { HttpException } from '@nestjs/common';
import { AppError, type ErrorBody, type ErrorCode, toAppError } from '@app/contracts';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_params: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  budget_exceeded: 429,
  cancelled: 409,
  function_error: 502,
  outcome_unknown: 502,
  upstream_error: 502,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

const HTTP_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** The HTTP status and body of anything thrown; also for the middleware that runs before Nest's routes. */
export function toHttpError(exception: unknown): { status: number; body: ErrorBody } {
  if (exception instanceof AppError)
    return { status: STATUS[exception.code] ?? 500, body: exception.toBody() };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = HTTP_CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request');
    return { status, body: { code, message: httpMessage(exception) } };
  }
  const parser = bodyParserError(exception);
  if (parser) return parser;
  // anything else as every transport maps it: a database or server that dropped the connection
  // (the gateway's own queries while PostgreSQL restarts) is `unavailable`, the rest `internal`
  const mapped = toAppError(exception);
  return { status: STATUS[mapped.code] ?? 500, body: mapped.toBody() };
}

function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}

/** body-parser's errors carry a `type` and a 4xx status. */
export function bodyParserError(err: unknown): { status: number; body: ErrorBody } | undefined {
  const e = err as { type?: string; status?: number; limit?: number };
  if (e?.type === 'entity.too.large') {
    return {
      status: 413,
      body: { code: 'payload_too_large', message: `request body exceeds ${e.limit} bytes` },
    };
  }
  if (e?.type === 'entity.parse.failed') {
    return { status: 400, body: { code: 'bad_request', message: 'request body is not valid JSON' } };
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.type) {
    return {
      status: e.status,
      body: { code: 'bad_request', message: `unreadable request body (${e.type})` },
    };
  }
  return undefined;
}
