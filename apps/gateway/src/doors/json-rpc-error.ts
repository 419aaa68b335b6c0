import type { ErrorShape, HttpError } from '../common/error-shapes';

/** JSON-RPC 2.0's codes, and the server-error code the platform uses for its limits. */
export const JSON_RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** A limit of the calling key (rate, concurrency, daily quota or budget): retry later. */
  LIMITED: -32000,
} as const;

/** The JSON-RPC error code of a platform error. */
export function jsonRpcCode({ status, body }: HttpError): number {
  if (body.code === 'bad_request' && /not valid JSON/.test(body.message)) return JSON_RPC.PARSE_ERROR;
  if (body.code === 'invalid_params') return JSON_RPC.INVALID_PARAMS;
  if (status === 429) return JSON_RPC.LIMITED;
  return status >= 500 ? JSON_RPC.INTERNAL_ERROR : JSON_RPC.INVALID_REQUEST;
}

/**
 * A JSON-RPC error response for a request refused before its method ran (a bad key, a body that is
 * not JSON or too large, a limit): the HTTP status says what happened, the body is JSON-RPC's,
 * with the platform's code and details as its `data`. For the JSON-RPC doors (A2A, MCP).
 */
export const jsonRpcErrorShape: ErrorShape = (error) => ({
  status: error.status,
  body: {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: jsonRpcCode(error),
      message: error.body.message,
      data: {
        code: error.body.code,
        ...(error.body.details !== undefined ? { details: error.body.details } : {}),
      },
    },
  },
});
