import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError } from '@app/contracts';
import {
  type Exchange,
  type ExchangeRequest,
  type ExchangeResponse,
  type FunctionContext,
  type HostResolver,
  judgeAddress,
  parseParams,
} from '@app/functions';
import { Logger } from '@app/observability';
import { type HttpRequestOptions, HttpRequestParams, httpRequestFunction } from './http-request.function';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });
const PUBLIC = '93.184.215.14';

function ctx(signal = new AbortController().signal): FunctionContext {
  return { signal, deadline: Date.now() + 10_000, logger: quiet, caller: {} };
}

/** An exchange that records what would have been sent and sends nothing. */
function recordingExchange(reply: Partial<ExchangeResponse> = {}) {
  const sent: ExchangeRequest[] = [];
  const exchange: Exchange = async (request) => {
    sent.push(request);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"ok":true}'),
      truncated: false,
      ...reply,
    };
  };
  return { sent, exchange };
}

function call(options: Partial<HttpRequestOptions>, params: Record<string, unknown>, signal?: AbortSignal) {
  const fn = httpRequestFunction({
    allowedDomains: ['*'],
    allowedMethods: ['GET', 'POST'],
    maxResponseBytes: 64,
    ...options,
  });
  return fn.execute(parseParams(HttpRequestParams, params), ctx(signal));
}

describe('http_request guard (no traffic leaves this test)', () => {
  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1/', /10\.0\.0\.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
    ['http://[::1]/', /::1 is a loopback address/],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0177.0.0.1:8080/', /127\.0\.0\.1 is a loopback/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[::ffff:10.0.0.1]/', /private/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://[fd00:ec2::254]/', /unique local/],
  ])('refuses %s before connecting', async (url, reason) => {
    const { sent, exchange } = recordingExchange();
    const resolve: HostResolver = async () => expect.unreachable('an IP literal needs no lookup');
    await expect(call({ exchange, resolve }, { url })).rejects.toThrow(reason);
    expect(sent).toEqual([]);
  });

  it('refuses a name that resolves to a loopback address (system resolver: localhost)', async () => {
    const { sent, exchange } = recordingExchange();
    await expect(call({ exchange }, { url: 'http://localhost:4222/' })).rejects.toThrow(
      /'localhost' resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(sent).toEqual([]);
  });

  it('refuses a name when any of its addresses is internal', async () => {
    const { sent, exchange } = recordingExchange();
    const resolve: HostResolver = async () => [
      { address: PUBLIC, family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    await expect(call({ exchange, resolve }, { url: 'https://mixed.example/' })).rejects.toThrow(
      /'mixed\.example' resolves to 10\.1\.2\.3/,
    );
    expect(sent).toEqual([]);
  });

  it('connects to the address it checked, so a rebinding DNS answer cannot swap it', async () => {
    const { sent, exchange } = recordingExchange();
    const answers = [PUBLIC, '127.0.0.1'];
    const resolve: HostResolver = async () => [{ address: answers.shift()!, family: 4 }];
    const result = await call({ exchange, resolve }, { url: 'https://rebind.example/data' });
    expect(result.data).toMatchObject({ status: 200, body: { ok: true } });
    expect(sent.map((s) => s.address.address)).toEqual([PUBLIC]);
    expect(answers).toEqual(['127.0.0.1']);
  });

  it('checks every redirect again and refuses one to the metadata address', async () => {
    const { sent, exchange } = recordingExchange({
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/' },
    });
    const resolve: HostResolver = async () => [{ address: PUBLIC, family: 4 }];
    await expect(call({ exchange, resolve }, { url: 'https://redirector.example/' })).rejects.toThrow(
      /169\.254\.169\.254 is a link-local/,
    );
    expect(sent).toHaveLength(1);
  });

  it('keeps to the domain and method allow-lists from the configuration', async () => {
    const { sent, exchange } = recordingExchange();
    const resolve: HostResolver = async () => [{ address: PUBLIC, family: 4 }];
    const options = {
      exchange,
      resolve,
      allowedDomains: ['api.example.com', '*.trusted.dev'],
      allowedMethods: ['GET'],
    };
    await expect(call(options, { url: 'https://evil.com/' })).rejects.toThrow(
      /'evil\.com' is not in functions\.http\.allowed_domains/,
    );
    await expect(call(options, { url: 'https://trusted.dev/' })).rejects.toThrow(
      /not in functions\.http\.allowed_domains/,
    );
    await expect(call(options, { url: 'https://api.example.com/', method: 'POST' })).rejects.toThrow(
      /method POST is not allowed \(functions\.http\.allowed_methods: GET\)/,
    );
    await expect(call(options, { url: 'file:///etc/passwd' })).rejects.toThrow(/only http and https/);
    await expect(call(options, { url: 'https://u:p@api.example.com/' })).rejects.toThrow(
      /credentials in the URL/,
    );
    expect(sent).toEqual([]);
    await call(options, { url: 'https://eu.trusted.dev/x' });
    await call(options, { url: 'https://api.example.com/x' });
    expect(sent.map((s) => s.url.host)).toEqual(['eu.trusted.dev', 'api.example.com']);
  });

  it('names every header value that is not text', async () => {
    await expect(
      call(recordingExchange(), { url: 'https://x.example/', headers: { a: {}, b: ['x'], c: 'ok' } }),
    ).rejects.toMatchObject({
      code: 'invalid_params',
      details: [{ field: 'headers.a' }, { field: 'headers.b' }],
    });
  });
});

describe('http_request exchange (a local server reached through a pinned address)', () => {
  let server: Server;
  let port = 0;
  // `api.test` does not exist in DNS: reaching the server proves the pinned address is used.
  const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const judge = (address: string) =>
    address === '127.0.0.1' ? { allowed: true as const } : judgeAddress(address);
  const local = ({ path, ...params }: Record<string, unknown>, signal?: AbortSignal) =>
    call({ resolve, judge }, { ...params, url: `http://api.test:${port}${path as string}` }, signal);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/json')
        return res
          .setHeader('content-type', 'application/json')
          .setHeader('x-secret', 's')
          .end('{"a":[1,2]}');
      if (req.url === '/big') return res.setHeader('content-type', 'text/plain').end('x'.repeat(1_000));
      if (req.url === '/moved') return res.writeHead(301, { location: '/json' }).end();
      if (req.url === '/echo-host') return res.setHeader('content-type', 'text/plain').end(req.headers.host);
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('returns status, selected headers and the JSON body parsed', async () => {
    const result = await local({ path: '/json' });
    expect(result.data).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: { a: [1, 2] },
      truncated: false,
    });
    expect((result.data as { headers: Record<string, string> }).headers['x-secret']).toBeUndefined();
    expect(result.message).toBe(`GET http://api.test:${port}/json → 200`);
  });

  it('sends the original host name, not the address', async () => {
    expect((await local({ path: '/echo-host' })).data).toMatchObject({ body: `api.test:${port}` });
  });

  it('cuts a response at the size cap and says so', async () => {
    const data = (await local({ path: '/big' })).data as { body: string; truncated: boolean };
    expect(data.truncated).toBe(true);
    expect(data.body).toBe(`${'x'.repeat(64)}\n…[truncated: the response was larger than 64 bytes]`);
  });

  it('follows an allowed redirect', async () => {
    expect((await local({ path: '/moved' })).data).toMatchObject({ status: 200, body: { a: [1, 2] } });
  });

  it('gives up at its own timeout, and at the call’s deadline with the call’s reason', async () => {
    await expect(local({ path: '/slow', timeout: 0.2 })).rejects.toThrow(
      /no response from api\.test:\d+ in time/,
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new TimeoutError('call timed out')), 100);
    await expect(local({ path: '/slow' }, controller.signal)).rejects.toThrow('call timed out');
  });
});
