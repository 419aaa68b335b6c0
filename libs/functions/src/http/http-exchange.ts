import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './request-guard';

export interface ExchangeRequest {
  method: string;
  url: URL;
  /** Where to connect: the address the guard approved, never a fresh lookup. */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body?: string;
  maxBytes: number;
  signal: AbortSignal;
}

export interface ExchangeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
}

export type Exchange = (request: ExchangeRequest) => Promise<ExchangeResponse>;

/** One HTTP request to a pinned address; reads at most `maxBytes` of the body. No redirects. */
export const httpExchange: Exchange = (r) =>
  new Promise((resolve, reject) => {
    const transport = r.url.protocol === 'https:' ? https : http;
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: r.address.address, family: r.address.family }]);
      else callback(null, r.address.address, r.address.family);
    };
    const request = transport.request(r.url, {
      method: r.method,
      headers: r.headers,
      lookup: pinned,
      agent: false,
      signal: r.signal,
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let finished = false;
      const done = (truncated: boolean) => {
        if (finished) return;
        finished = true;
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).subarray(0, r.maxBytes),
          truncated,
        });
        if (truncated) request.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > r.maxBytes) done(true);
      });
      response.once('end', () => done(false));
      response.once('error', reject);
    });
    request.end(r.body);
  });
