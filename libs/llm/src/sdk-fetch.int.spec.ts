import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy } from '@app/testing';
import { createSdkFetch } from './sdk-fetch';

const fetchOver = createSdkFetch();
let server: Server;
let base: string;
const sockets = new Set<unknown>();

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void> | void> = {
  '/echo': async (req, res) => {
    sockets.add(req.socket);
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-multi', ['a', 'b']);
    res.end(
      JSON.stringify({ method: req.method, auth: req.headers.authorization, body: await readBody(req) }),
    );
  },
  '/stream': async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: one\n\n');
    await new Promise((r) => setTimeout(r, 100));
    res.end('data: two\n\n');
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify({ zipped: true })));
  },
  '/empty': (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  '/slow': (_req, res) => {
    setTimeout(() => res.end('late'), 2_000);
  },
  '/broken': (req) => {
    req.socket.destroy();
  },
  '/json-cut': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":');
    setTimeout(() => req.socket.destroy(), 20);
  },
  '/json-stalls': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":');
    setTimeout(() => res.end('1}'), 2_000);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => void routes[req.url ?? '']?.(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

describe('createSdkFetch (a real HTTP server)', () => {
  it('sends method, headers and body, reads status, headers and JSON, and keeps connections alive', async () => {
    const call = () =>
      fetchOver(`${base}/echo`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: '{"q":1}',
      });
    const res = await call();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(await res.json()).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":1}' });
    for (let i = 0; i < 9; i++) await (await call()).text();
    // A pool may open a second connection while the first is being handed back; never one a call.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('hands over a streamed body as it arrives', async () => {
    const res = await fetchOver(`${base}/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('decodes a gzip body and drops its encoding header, as fetch does', async () => {
    const res = await fetchOver(`${base}/gzip`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual({ zipped: true });
  });

  it('answers a 204 with no body', async () => {
    const res = await fetchOver(`${base}/empty`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('rejects with an AbortError when the signal fires, so the SDKs see a timeout or a cancel', async () => {
    const aborted = await fetchOver(`${base}/slow`, { signal: AbortSignal.timeout(50) }).catch(
      (e: unknown) => e,
    );
    expect((aborted as Error).name).toBe('AbortError');
  });

  it('reads a JSON body whole before answering, yet fails a body cut off where fetch would: on reading it', async () => {
    const res = await fetchOver(`${base}/json-cut`);
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it('rejects with an AbortError when the signal fires while a JSON body is read', async () => {
    const aborted = await fetchOver(`${base}/json-stalls`, { signal: AbortSignal.timeout(50) }).catch(
      (e: unknown) => e,
    );
    expect((aborted as Error).name).toBe('AbortError');
  });

  it('rejects a dropped connection or a refused one as fetch does: TypeError with the cause', async () => {
    const dropped = await fetchOver(`${base}/broken`).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(TypeError);
    expect((dropped as Error & { cause: { code?: string } }).cause.code).toBe('UND_ERR_SOCKET');
    const refused = await fetchOver('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect((refused as Error & { cause: { code?: string } }).cause.code).toBe('ECONNREFUSED');
  });

  it('goes through the configured proxy, except to a host in its no-proxy list', async () => {
    const proxy = await startForwardProxy();
    try {
      const proxied = createSdkFetch({ url: proxy.url, noProxy: [] });
      const res = await proxied(`${base}/echo`, { method: 'POST', body: 'via proxy' });
      expect(await res.json()).toMatchObject({ body: 'via proxy' });
      expect(proxy.seen).toEqual([`POST ${base}/echo`]);
      const direct = createSdkFetch({ url: proxy.url, noProxy: ['127.0.0.1'] });
      expect((await direct(`${base}/empty`)).status).toBe(204);
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a protocol or a body it does not speak', async () => {
    await expect(fetchOver('ftp://example.com/')).rejects.toThrow(/unsupported protocol/);
    await expect(fetchOver(`${base}/echo`, { method: 'POST', body: new FormData() })).rejects.toThrow(
      /only string and byte bodies/,
    );
  });
});
