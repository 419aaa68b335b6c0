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
      agents: [{ name: 'helper', description: 'Answers questions.', allowed_tools: ['everything_get_sum'] }],
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
    expect(tools.map((t) => t.name).sort()).toEqual(['agent_default', 'agent_helper']);
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
});
