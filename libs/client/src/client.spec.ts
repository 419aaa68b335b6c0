import { describe, expect, it } from 'vitest';
import { AgentChassisClient } from './client';
import { AgentChassisError } from './errors';

/** A fetch that records each request and answers with the given JSON (no socket). */
function recordingFetch(status: number, body: unknown) {
  const requests: { url: string; method: string; headers: Record<string, string> }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
    });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

describe('AgentChassisClient lists and who-am-I', () => {
  const page = { items: [{ id: 'r1' }], next_cursor: 'c2' };

  it('lists sessions with a search, a limit and a cursor, leaving out what is not given', async () => {
    const { fetch, requests } = recordingFetch(200, page);
    const client = new AgentChassisClient({ baseUrl: 'http://gw.test/', apiKey: 'ac_k', fetch });
    expect(await client.sessions.list({ q: 'tea time', limit: 5, cursor: 'c1' })).toEqual(page);
    await client.sessions.list();
    expect(requests.map((r) => r.url)).toEqual([
      'http://gw.test/api/v1/sessions?q=tea+time&limit=5&cursor=c1',
      'http://gw.test/api/v1/sessions',
    ]);
    expect(requests[0].headers.authorization).toBe('Bearer ac_k');
  });

  it('lists runs filtered by session, status and agent', async () => {
    const { fetch, requests } = recordingFetch(200, page);
    const client = new AgentChassisClient({ baseUrl: 'http://gw.test', fetch });
    await client.runs.list({ session_id: 's_1', status: 'completed', agent: 'default', limit: 2 });
    expect(requests[0]).toMatchObject({
      method: 'GET',
      url: 'http://gw.test/api/v1/runs?session_id=s_1&status=completed&agent=default&limit=2',
    });
  });

  it("reads the calling key's principal and scopes, and throws the API's error", async () => {
    const me = { principal: 'alice', scopes: ['chat'], key_id: 'k1' };
    const ok = recordingFetch(200, me);
    expect(await new AgentChassisClient({ baseUrl: 'http://gw.test', fetch: ok.fetch }).me()).toEqual(me);
    expect(ok.requests[0].url).toBe('http://gw.test/api/v1/me');

    const refused = recordingFetch(401, {
      error: { code: 'unauthorized', message: 'invalid or revoked API key' },
    });
    const error = await new AgentChassisClient({ baseUrl: 'http://gw.test', fetch: refused.fetch })
      .me()
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AgentChassisError);
    expect(error).toMatchObject({ code: 'unauthorized', message: 'invalid or revoked API key', status: 401 });
  });

  it("posts the caller's plan to /api/v1/runs as one JSON turn", async () => {
    const { fetch } = recordingFetch(200, { run_id: 'run_1', finish_reason: 'final' });
    const bodies: unknown[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      bodies.push({ url: String(input), method: init?.method, body: JSON.parse(String(init?.body)) });
      return fetch(input, init);
    }) as typeof globalThis.fetch;
    const client = new AgentChassisClient({ baseUrl: 'http://gw.test', fetch: recording });
    const plan = { steps: [{ tool: 'add', parameters: { a: 1, b: 2 } }] };
    expect(await client.runs.plan({ plan, agent: 'calc' })).toMatchObject({ run_id: 'run_1' });
    expect(bodies).toEqual([
      { url: 'http://gw.test/api/v1/runs', method: 'POST', body: { plan, agent: 'calc', stream: false } },
    ]);
  });

  it('streams a held call’s rejection: the decision posted to /reject asking for events, read as they come', async () => {
    const sent: { url: string; accept?: string; body: unknown }[] = [];
    const events = 'event: run_end\ndata: {"run_id":"run_1","finish_reason":"final","reply":"No."}\n\n';
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const headers = init?.headers as Record<string, string>;
      sent.push({ url: String(input), accept: headers.accept, body: JSON.parse(String(init?.body)) });
      return new Response(events, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }) as typeof globalThis.fetch;
    const client = new AgentChassisClient({ baseUrl: 'http://gw.test', fetch });
    const decision = { call_id: 'run_1:1:0', hash: 'a'.repeat(64), reason: 'not today' };
    const read = [];
    for await (const event of client.runs.rejectStream('run_1', { decision })) read.push(event);
    expect(read).toEqual([
      { type: 'run_end', data: { run_id: 'run_1', finish_reason: 'final', reply: 'No.' } },
    ]);
    expect(sent).toEqual([
      { url: 'http://gw.test/api/v1/runs/run_1/reject', accept: 'text/event-stream', body: decision },
    ]);
  });
});
