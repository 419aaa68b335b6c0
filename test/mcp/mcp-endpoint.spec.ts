import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EVERYTHING, type McpStack, startMcpStack } from './mcp-stack';

describe('the gateway as an MCP server at /mcp (the SDK client, real processes)', () => {
  let stack: McpStack;
  const clients: Client[] = [];
  let chatKey = '';
  let invokeKey = '';
  let readKey = '';

  const connect = async (key: string) => {
    const client = new Client({ name: 'mcp-endpoint-spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const createKey = async (scopes: string[]) => {
    const { status, body } = await api(stack.base, 'POST', '/api/v1/keys', {
      name: scopes.join('+'),
      scopes,
    });
    if (status !== 201 || !body.key) throw new Error(`key not created: ${status} ${JSON.stringify(body)}`);
    return body.key;
  };

  beforeAll(async () => {
    stack = await startMcpStack({
      servers: [
        { name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
      ],
      agents: [
        { name: 'helper', description: 'Answers questions.', allowed_tools: ['everything_get_sum'] },
        { name: 'guarded', allowed_tools: ['everything_get_sum'], needs_approval: ['everything_get_sum'] },
      ],
    });
    [chatKey, invokeKey, readKey] = await Promise.all([
      createKey(['chat']),
      createKey(['functions:invoke']),
      createKey(['functions:read']),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  it('lists the functions a functions:invoke key may call, with their parameter schemas', async () => {
    const client = await connect(invokeKey);
    const { tools } = await client.listTools();
    const sum = tools.find((t) => t.name === 'everything_get_sum');
    expect(sum).toMatchObject({
      inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(tools.some((t) => t.name === 'send_message')).toBe(true);
    expect(tools.some((t) => t.name.startsWith('agent_'))).toBe(false);
  });

  it('calls a function: structured content and a text rendering; a failure is an isError result', async () => {
    const client = await connect(invokeKey);
    const weather = await client.callTool({
      name: 'everything_get_structured_content',
      arguments: { location: 'New York' },
    });
    expect(weather.isError).toBeFalsy();
    expect(weather.structuredContent).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
    expect(weather.content).toEqual([{ type: 'text', text: expect.stringContaining('"temperature":33') }]);
    const bad = await client.callTool({ name: 'everything_get_sum', arguments: { a: 'x', b: 1 } });
    expect(bad).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^invalid_params: .*a/) }],
    });
  });

  it('offers each agent to a chat key as agent_<name>, answering with the reply, run and session', async () => {
    const client = await connect(chatKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'agent_default',
      'agent_guarded',
      'agent_helper',
      'approval_decide',
    ]);
    expect(tools.find((t) => t.name === 'agent_helper')).toMatchObject({
      description: 'Answers questions.',
      inputSchema: { required: ['message'] },
    });
    stack.llm.setScript({
      replies: ['<call name="everything_get_sum"><p>a: 20</p><p>b: 22</p></call>', 'Forty-two.'],
    });
    const result = await client.callTool({ name: 'agent_helper', arguments: { message: '20 + 22?' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Forty-two.' }]);
    expect(result.structuredContent).toMatchObject({
      reply: 'Forty-two.',
      run_id: expect.stringMatching(/^run_/),
      session_id: expect.stringMatching(/^ses_/),
    });
    const runId = (result.structuredContent as { run_id: string }).run_id;
    const run = await api(stack.base, 'GET', `/api/v1/runs/${runId}`, undefined, chatKey);
    expect(run.body).toMatchObject({ status: 'completed', used_tools: { everything_get_sum: { count: 1 } } });
  });

  it('shows an empty list to a key without functions:invoke or chat', async () => {
    const client = await connect(readKey);
    expect((await client.listTools()).tools).toEqual([]);
    const call = await client.callTool({ name: 'everything_get_sum', arguments: { a: 1, b: 2 } });
    expect(call).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('not_found') }] });
  });

  it('answers malformed requests with a 4xx and a JSON body, never a 500; GET is not served (stateless)', async () => {
    const send = (body: string, headers: Record<string, string> = {}, method = 'POST') =>
      fetch(`${stack.base}/mcp`, {
        method,
        headers: {
          authorization: `Bearer ${invokeKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: method === 'POST' ? body : undefined,
      });
    const cases = [
      await send('{"broken": '),
      await send('{"not":"json-rpc"}'),
      await send('hello', { 'content-type': 'text/plain' }),
      await send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { accept: 'text/html' }),
    ];
    for (const res of cases) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await res.json()).toBeTypeOf('object');
    }
    // an empty batch holds no request to answer: accepted like a batch of notifications
    expect((await send('[]')).status).toBe(202);
    const get = await send('', {}, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await send('', {}, 'DELETE')).status).toBe(405);
  });

  it('refuses a wrong key with 401', async () => {
    const res = await fetch(`${stack.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer ac_not_a_real_key_000000',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    await expect(connect('ac_not_a_real_key_000000')).rejects.toThrow(/401|unauthorized|invalid/i);
  });

  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${chatKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('points a client without a key at its protected-resource metadata (WWW-Authenticate)', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: '' });
    expect(res.status).toBe(401);
    const metadataUrl = `${stack.base}/.well-known/oauth-protected-resource/mcp`;
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: `${stack.base}/mcp`, bearer_methods_supported: ['header'] });
  });

  it('answers in JSON-RPC: bad JSON -32700, an oversize body -32600, bad params -32602 with a readable message', async () => {
    const broken = await rpc('{"broken": ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const huge = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(1_100_000) },
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    const bad = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 42 } });
    const body = (await bad.json()) as { id: number; error: { code: number; message: string } };
    expect(body).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(body.error.message.length).toBeLessThan(300);
    expect(body.error.message).toMatch(/name/);
  });

  it('refuses a request from a foreign browser origin (DNS-rebinding protection)', async () => {
    const foreign = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { origin: 'http://evil.example.com' },
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringMatching(/Origin/) },
    });
    const own = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { origin: stack.base });
    expect(own.status).toBe(200);
  });

  it('answers a call held for approval with its id, and approval_decide carries the run on', async () => {
    const client = await connect(chatKey);
    stack.llm.setScript({
      replies: ['<call name="everything_get_sum"><p>a: 2</p><p>b: 3</p></call>', 'Five.'],
    });
    const held = await client.callTool({ name: 'agent_guarded', arguments: { message: '2 + 3?' } });
    const { approvals } = held.structuredContent as { approvals: { id: string; function: string }[] };
    expect(approvals).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^apr_/),
        function: 'everything_get_sum',
        arguments: { a: 2, b: 3 },
      }),
    ]);
    const done = await client.callTool({
      name: 'approval_decide',
      arguments: { id: approvals[0].id, approve: true },
    });
    expect(done.content).toEqual([{ type: 'text', text: 'Five.' }]);
  });

  it('answers a key whose budget is spent with a tool error naming it', async () => {
    const { body } = await api(stack.base, 'POST', '/api/v1/keys', {
      name: 'broke',
      scopes: ['chat'],
      daily_cost_budget_usd: 0,
    });
    const client = await connect(body.key as string);
    const refused = await client.callTool({ name: 'agent_helper', arguments: { message: 'Hi' } });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^budget_exceeded/) }],
    });
  });
});
