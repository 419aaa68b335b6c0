import {
  AgentNotFoundError,
  type ErrorBody,
  type FieldError,
  type OpenAiErrorResponse,
} from '@app/contracts';
import { TokenQuotaUsedUpError } from '@app/limits';
import type { ErrorShape } from '../../common/error-shapes';
import { toHttpError } from '../../common/http-error';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** Fields of the platform's run request, as the OpenAI request names them. */
const PARAMS: [RegExp, string][] = [
  [/^client_tools\[(\d+)\]\.name$/, 'tools[$1].function.name'],
  [/^client_tools.*/, 'tools'],
  [/^(tool_results|history|message)(\..*)?$/, 'messages'],
  [/^agent$/, 'model'],
  [/^session_id$/, 'X-Session-Id'],
  [/\.(\d+)(?=\.|$)/g, '[$1]'],
];

/** OpenAI's error body `{error: {message, type, param, code}}`, for every route under `/v1/`. */
export const openAiErrorShape: ErrorShape = ({ status, body }, exception) => ({
  status,
  body: { error: detailOf(status, body, exception instanceof TokenQuotaUsedUpError) },
});

/** Any exception as OpenAI's error body with its status (also written into a stream that already began). */
export function openAiError(exception: unknown): { status: number; body: OpenAiErrorResponse } {
  const { status, body } = toHttpError(exception);
  return { status, body: { error: detailOf(status, body, exception instanceof TokenQuotaUsedUpError) } };
}

function detailOf(status: number, body: ErrorBody, quotaUsedUp: boolean): OpenAiErrorResponse['error'] {
  const type = TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  const agent = AgentNotFoundError.agentOf(body);
  if (agent !== undefined) {
    return {
      message: `The model '${agent}' does not exist: no agent has that name (GET /v1/models lists them).`,
      type,
      param: 'model',
      code: 'model_not_found',
    };
  }
  const fields =
    body.code === 'invalid_params' && Array.isArray(body.details) ? (body.details as FieldError[]) : [];
  return {
    message: body.message,
    type,
    param: fields[0] ? openAiParam(fields[0].field) : null,
    code: codeOf(status, body, quotaUsedUp),
  };
}

function codeOf(status: number, body: ErrorBody, quotaUsedUp: boolean): string {
  if (status === 401) return 'invalid_api_key';
  if (status === 403) return 'insufficient_scope';
  // OpenAI's code for a spent quota or budget (its clients do not retry it); a rate limit is retried
  if (status === 429)
    return quotaUsedUp || body.code === 'budget_exceeded' ? 'insufficient_quota' : 'rate_limit_exceeded';
  return body.code;
}

export function openAiParam(field: string): string {
  return PARAMS.reduce((name, [pattern, replacement]) => name.replace(pattern, replacement), field);
}
