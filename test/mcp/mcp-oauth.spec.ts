import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { api, type McpStack, startMcpStack } from './mcp-stack';

const CLIENT = { id: 'runner-client', secret: 'runner-secret-0123456789' };
const TOKEN_TTL_S = 3;

/**
 * An MCP server behind OAuth, in this process: its protected-resource metadata, an authorization
 * server issuing short-lived tokens for the client-credentials grant, and `/mcp` taking only a live
 * token (401 with `WWW-Authenticate` otherwise). It counts what it issued and what it refused.
 */
function oauthMcpServer() {
  const issued = new Map<string, number>(); // token → expiry (ms)
  const seen = { tokens: 0, refused: 0 };
  let base = '';
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? '';
    if (path === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (path === '/.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    if (path === '/token' && req.method === 'POST') {
      const body = new URLSearchParams(await read(req));
      const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}` || body.get('grant_type') !== 'client_credentials')
        return json(res, 401, { error: 'invalid_client' });
      const token = `tok-${++seen.tokens}`;
      issued.set(token, Date.now() + TOKEN_TTL_S * 1000);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_S });
    }
    if (path === '/revoke') {
      issued.clear();
      return json(res, 200, {});
    }
    if (path.startsWith('/mcp')) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if ((issued.get(token) ?? 0) < Date.now()) {
        seen.refused++;
        return json(
          res,
          401,
          { error: 'invalid_token' },
          {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          },
        );
      }
      const mcp = new McpServer({ name: 'vault', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'The token this call came with.' }, async () => ({
        content: [{ type: 'text', text: token }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => void transport.close());
      await mcp.connect(transport);
      const text = await read(req);
      return transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
    }
    json(res, 404, {});
  });
  return {
    seen,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve(base);
        }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a mounted MCP server behind OAuth (client credentials; gateway, executor, runner)', () => {
  const vault = oauthMcpServer();
  let stack: McpStack;
  let base = '';

  beforeAll(async () => {
    base = await vault.start();
    stack = await startMcpStack({
      servers: [
        {
          name: 'vault',
          transport: 'http',
          url: `${base}/mcp`,
          oauth: { client_id: CLIENT.id, client_secret: CLIENT.secret, issuer: base },
          allow_private_network: true,
        },
      ],
    });
    await expectEventually(
      () => expect(stack.runners[0].output()).toContain(`MCP server 'vault' connected`),
      {
        timeoutMs: 30_000,
      },
    );
  }, 90_000);
  afterAll(async () => {
    await stack?.close();
    await vault.close();
  });

  const whoami = async () => {
    const { status, body } = await api(stack.base, 'POST', '/api/v1/functions/vault_whoami/invoke', {
      params: {},
    });
    expect(status).toBe(200);
    return body.result?.message as string;
  };

  it('gets a token, and replaces it before it expires: a long session never sends a stale one', async () => {
    const first = await whoami();
    expect(first).toMatch(/^tok-\d+$/);
    const refusedBefore = vault.seen.refused;
    // past 80% of the token's life: the next call goes with a new token, never a refused one
    await new Promise((resolve) => setTimeout(resolve, TOKEN_TTL_S * 1000 * 0.85));
    const second = await whoami();
    expect(second).toMatch(/^tok-\d+$/);
    expect(second).not.toBe(first);
    expect(vault.seen.refused).toBe(refusedBefore);
  });

  it('reconnects with a new token after a 401 (a token revoked early), and the call goes through', async () => {
    await fetch(`${base}/revoke`);
    const again = await whoami();
    expect(again).toMatch(/^tok-\d+$/);
    expect(vault.seen.refused).toBeGreaterThan(0);
  });
});
