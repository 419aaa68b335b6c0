import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Response } from 'express';
import {
  AgentNotFoundError,
  type ErrorBody,
  type FieldError,
  type OpenAiErrorResponse,
} from '@app/contracts';
import { Logger } from '@app/observability';
import { TokenQuotaUsedUpError } from '@app/limits';
import { toHttpError } from '../common/http-error.filter';

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

/** Any exception as OpenAI's error body `{error: {message, type, param, code}}` with its status. */
export function openAiError(exception: unknown): {
  status: number;
  body: OpenAiErrorResponse;
  retryAfter?: number;
} {
  const { status, body } = toHttpError(exception);
  const retryAfter = (body.details as { retry_after_s?: number } | undefined)?.retry_after_s;
  const error = detailOf(status, body, exception instanceof TokenQuotaUsedUpError);
  return { status, body: { error }, ...(retryAfter ? { retryAfter } : {}) };
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
  if (status === 429) return quotaUsedUp ? 'insufficient_quota' : 'rate_limit_exceeded';
  return body.code;
}

export function openAiParam(field: string): string {
  return PARAMS.reduce((name, [pattern, replacement]) => name.replace(pattern, replacement), field);
}

/** The `/v1` routes answer every error in OpenAI's shape; the rest of the API keeps its own. */
@Catch()
export class OpenAiErrorFilter implements ExceptionFilter {
  constructor(@Inject(Logger) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, retryAfter } = openAiError(exception);
    if (status >= 500) this.logger.error('request failed', { status, code: body.error.code, err: exception });
    if (response.headersSent) {
      response.end();
      return;
    }
    if (status === 429 && retryAfter) response.setHeader('Retry-After', String(retryAfter));
    response.status(status).json(body);
  }
}
