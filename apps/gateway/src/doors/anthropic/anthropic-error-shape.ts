import type { ErrorShape } from '../../common/error-shapes';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
};

/** Anthropic's error body `{type: 'error', error: {type, message}}`, for `/v1/messages`. */
export const anthropicErrorShape: ErrorShape = ({ status, body }) => ({
  status,
  body: anthropicError(status, body.message),
});

export function anthropicError(status: number, message: string) {
  const type = TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error' as const, error: { type, message } };
}
