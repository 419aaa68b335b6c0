import type { ExchangeResponse } from '@app/functions';

const KEPT_HEADERS = [
  'content-type',
  'content-length',
  'content-language',
  'location',
  'date',
  'last-modified',
  'etag',
  'cache-control',
  'expires',
  'retry-after',
  'www-authenticate',
];
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|x-ndjson)|[^;]*\+(json|xml))/i;
const JSON_TYPES = /^application\/(json|[^;]*\+json)|^text\/json/i;

export interface ResponseSummary {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  truncated: boolean;
}

/** What the caller sees: status, the useful headers, the body (JSON parsed when it is JSON). */
export function summarizeResponse(response: ExchangeResponse, maxBytes: number): ResponseSummary {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    status: response.status,
    headers,
    body: bodyOf(response, headers['content-type'] ?? '', maxBytes),
    truncated: response.truncated,
  };
}

function bodyOf(response: ExchangeResponse, type: string, maxBytes: number): unknown {
  if (response.body.length === 0) return '';
  if (type && !TEXT_TYPES.test(type))
    return `[binary body omitted: ${response.truncated ? 'more than ' : ''}${response.body.length} bytes of ${type}]`;
  const text = response.body.toString('utf8');
  if (response.truncated) return `${text}\n…[truncated: the response was larger than ${maxBytes} bytes]`;
  if (JSON_TYPES.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
