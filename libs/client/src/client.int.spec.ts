import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SSE_EVENTS } from '@app/contracts';
import { AgentChassisClient } from './client';
import { AgentChassisError } from './errors';
import type { ChatEvent } from './types';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A small local HTTP server standing in for the gateway's wire format (status, headers, SSE bytes). */
describe('AgentChassisClient over HTTP', () => {
  let server: Server;
  let handler: Handler;
  let client: AgentChassisClient;
  const seen: { method?: string; url?: string; auth?: string; accept?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          auth: req.headers.authorization,
          accept: req.headers.accept,
          body,
        });
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = new AgentChassisClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      apiKey: 'ac_test',
    });
  });
  afterEach(() => (seen.length = 0));
  afterAll(() => new Promise((r) => server.close(r)));

  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    ((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    }) as Handler;

  const collect = async (events: AsyncIterable<ChatEvent>) => {
    const out: ChatEvent[] = [];
    for await (const e of events) out.push(e);
    return out;
  };

  it('sends the key and the JSON body, and reads the reply', async () => {
    handler = json(200, { reply: 'Five.', finish_reason: 'final' });
    const reply = await client.chat({ message: 'Two plus three?', session_id: 'ses_1' });
    expect(reply).toEqual({ reply: 'Five.', finish_reason: 'final' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/chat', auth: 'Bearer ac_test' });
    expect(JSON.parse(seen[0].body)).toEqual({
      message: 'Two plus three?',
      session_id: 'ses_1',
      stream: false,
    });
  });

  it("throws AgentChassisError with the API's code, message, details, status and Retry-After", async () => {
    handler = json(
      429,
      { error: { code: 'rate_limited', message: 'slow down', details: { retry_after_s: 7 } } },
      { 'retry-after': '7' },
    );
    const err = await client.functions.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentChassisError);
    expect(err).toMatchObject({
      code: 'rate_limited',
      message: 'slow down',
      details: { retry_after_s: 7 },
      status: 429,
      retryAfter: 7,
    });
  });

  it('gives a code to an error body that is not the API’s', async () => {
    handler = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    await expect(client.health()).rejects.toMatchObject({ code: 'function_error', status: 502 });
  });

  it('answers a 503 health report instead of throwing, and encodes path segments and queries', async () => {
    handler = json(503, { status: 'degraded', error: { code: 'unavailable', message: 'down: redis' } });
    expect(await client.health()).toMatchObject({ status: 'degraded' });
    handler = json(200, { delays: [] });
    await client.delays.list({ status: 'pending' });
    handler = json(404, { error: { code: 'not_found', message: "delay 'a b' not found" } });
    await expect(client.delays.get('a b/c')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(seen.map((s) => s.url)).toEqual([
      '/health',
      '/api/v1/delays?status=pending',
      '/api/v1/delays/a%20b%2Fc',
    ]);
  });

  it('reports an unreachable gateway as unavailable with status 0', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const gone = new AgentChassisClient({ baseUrl: `http://127.0.0.1:${port}` });
    await expect(gone.health()).rejects.toMatchObject({ code: 'unavailable', status: 0 });
  });

  it('streams typed events across chunk boundaries, skipping keep-alives and unknown events', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      const text =
        'event: run_start\ndata: {"run_id":"run_1","session_id":"ses_1"}\n\n: keep-alive\n\n' +
        'event: future_kind\ndata: {}\n\nid: 2\nevent: delta\ndata: {"step":1,\ndata: "text":"Fi"}\n\n' +
        'event: run_end\ndata: {"reply":"Five.","finish_reason":"final"}\n\n';
      let i = 0;
      const tick = setInterval(() => {
        res.write(text.slice(i, i + 13));
        i += 13;
        if (i < text.length) return;
        clearInterval(tick);
        res.end();
      }, 1);
    };
    const events = await collect(client.chatStream({ message: 'hi' }));
    expect(events).toEqual([
      { type: 'run_start', data: { run_id: 'run_1', session_id: 'ses_1' } },
      { type: 'delta', id: '2', data: { step: 1, text: 'Fi' } },
      { type: 'run_end', id: '2', data: { reply: 'Five.', finish_reason: 'final' } },
    ]);
    expect(seen[0].accept).toBe('text/event-stream');
    expect(JSON.parse(seen[0].body)).toEqual({ message: 'hi', stream: true });
  });

  it('yields every event type the contracts name (run_end last), none dropped', async () => {
    const kinds = Object.keys(AGENT_SSE_EVENTS).filter((k) => k !== 'run_end' && k !== 'error');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end([...kinds, 'run_end'].map((k) => `event: ${k}\ndata: {"kind":"${k}"}\n\n`).join(''));
    };
    const events = await collect(client.chatStream({ message: 'hi' }));
    expect(events.map((e) => e.type)).toEqual([...kinds, 'run_end']);
  });

  it('ends a stream on its error event, and throws for a turn refused before it starts', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: error\ndata: {"error":{"code":"timeout","message":"run timed out"}}\n\n');
    };
    expect(await collect(client.chatStream({ message: 'hi' }))).toEqual([
      { type: 'error', data: { error: { code: 'timeout', message: 'run timed out' } } },
    ]);
    handler = json(404, { error: { code: 'not_found', message: "session 'ses_x' not found" } });
    await expect(collect(client.chatStream({ message: 'hi', session_id: 'ses_x' }))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('stops reading when the signal aborts mid-stream', async () => {
    let open: ServerResponse | undefined;
    handler = (_req, res) => {
      open = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: thought\ndata: {"step":1,"text":"thinking"}\n\n');
    };
    const controller = new AbortController();
    const events: string[] = [];
    const reading = (async () => {
      for await (const e of client.chatStream({ message: 'hi' }, { signal: controller.signal })) {
        events.push(e.type);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(events).toEqual(['thought']);
    open?.end();
  });
});
