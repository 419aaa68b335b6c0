import { FunctionFailedError, InvalidParamsError } from '@app/contracts';
import {
  type AgentFunction,
  type Exchange,
  type FunctionContext,
  type GuardOptions,
  httpExchange,
  Param,
  RequestGuard,
} from '@app/functions';
import { type ResponseSummary, summarizeResponse } from './http/response-body';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const MAX_REDIRECTS = 5;
const DROPPED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
]);
const CROSS_ORIGIN_DROPPED = new Set(['authorization', 'cookie', 'proxy-authorization']);

export class HttpRequestParams {
  @Param({ description: 'HTTP method', enum: HTTP_METHODS, default: 'GET' }) method?: string;
  @Param({ description: 'absolute http(s) URL', required: true }) url!: string;
  @Param({ description: 'request headers, name to value', type: 'object' }) headers?: Record<string, unknown>;
  @Param({ description: 'request body as text (send JSON as a JSON string)' }) body?: string;
  @Param({ description: 'seconds to wait for the response', default: 10, min: 0.1, max: 120 })
  timeout?: number;
}

export interface HttpRequestOptions extends GuardOptions {
  maxResponseBytes: number;
  exchange?: Exchange;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one door from functions to the network: allow-listed methods and domains, public addresses
 * only (checked after DNS and again on every redirect, before connecting), bounded size and time.
 */
export function httpRequestFunction(o: HttpRequestOptions): AgentFunction<HttpRequestParams> {
  const guard = new RequestGuard(o);
  const exchange = o.exchange ?? httpExchange;
  const limits = `Allowed methods: ${o.allowedMethods.join(', ') || 'none'}. Allowed domains: ${o.allowedDomains.join(', ') || 'none'}.`;
  return {
    name: 'http_request',
    description: `Sends an HTTP request to a public web API and returns status, headers and body (JSON parsed). ${limits}`,
    params: HttpRequestParams,
    // Sending it again is safe only when every method it may use just reads (RFC 9110's safe methods).
    idempotent: o.allowedMethods.every((m) => SAFE_METHODS.has(m.toUpperCase())),
    async execute(params, ctx) {
      const method = params.method ?? 'GET';
      guard.checkMethod(method);
      const request = {
        method,
        url: parseUrl(params.url),
        headers: requestHeaders(params.headers),
        body: params.body,
      };
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout((params.timeout ?? 10) * 1_000)]);
      const response = await follow(request, { guard, exchange, signal, ctx, maxBytes: o.maxResponseBytes });
      return {
        data: response,
        message: `${method} ${request.url.origin}${request.url.pathname} → ${response.status}`,
      };
    },
  };
}

interface Hop {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

interface FollowDeps {
  guard: RequestGuard;
  exchange: Exchange;
  signal: AbortSignal;
  ctx: FunctionContext;
  maxBytes: number;
}

async function follow(first: Hop, d: FollowDeps): Promise<ResponseSummary> {
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    const address = await d.guard.check(hop.url);
    const response = await d
      .exchange({ ...hop, address, maxBytes: d.maxBytes, signal: d.signal })
      .catch((err: unknown) => {
        throw failure(err, hop.url, d);
      });
    const location = response.headers.location;
    if (response.status < 300 || response.status > 399 || !location || response.status === 304)
      return summarizeResponse(response, d.maxBytes);
    if (redirects >= MAX_REDIRECTS)
      throw new FunctionFailedError(`too many redirects (more than ${MAX_REDIRECTS})`);
    hop = redirected(hop, response.status, location);
  }
}

function redirected(hop: Hop, status: number, location: string): Hop {
  const url = parseUrl(new URL(location, hop.url).toString());
  const keepsMethod = status === 307 || status === 308 || hop.method === 'GET' || hop.method === 'HEAD';
  const headers = { ...hop.headers };
  if (url.origin !== hop.url.origin) for (const name of CROSS_ORIGIN_DROPPED) delete headers[name];
  return keepsMethod ? { ...hop, url, headers } : { method: 'GET', url, headers };
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new InvalidParamsError([{ field: 'url', message: 'must be an absolute http(s) URL' }]);
  }
}

function requestHeaders(headers: Record<string, unknown> = {}): Record<string, string> {
  const bad = Object.entries(headers).filter(([, v]) => typeof v !== 'string' && typeof v !== 'number');
  if (bad.length)
    throw new InvalidParamsError(bad.map(([k]) => ({ field: `headers.${k}`, message: 'must be a string' })));
  const out: Record<string, string> = {
    'accept-encoding': 'identity',
    'user-agent': 'AgentChassis http_request',
  };
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!DROPPED_HEADERS.has(key) && !key.startsWith('proxy-')) out[key] = String(value);
  }
  return out;
}

function failure(err: unknown, url: URL, d: FollowDeps): unknown {
  if (d.ctx.signal.aborted) return d.ctx.signal.reason;
  if (d.signal.aborted) return new FunctionFailedError(`no response from ${url.host} in time`);
  const code = (err as { code?: string }).code;
  return new FunctionFailedError(`the request to ${url.host} failed: ${code ?? (err as Error).message}`);
}
