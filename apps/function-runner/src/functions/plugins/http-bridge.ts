import { type AgentFunction, type FunctionContext, parseParams } from '@app/functions';
import type { HttpRequestParams } from '../builtins/http-request.function';

/** A custom function's `ctx.http(...)`: the built-in http_request, with all its guards. */
export function httpBridge(httpRequest: AgentFunction<HttpRequestParams>) {
  return async (request: unknown, ctx: FunctionContext): Promise<unknown> => {
    const params = parseParams(httpRequest.params, request);
    ctx.logger.debug('custom function http request', { url: params.url });
    return (await httpRequest.execute(params, ctx)).data;
  };
}
