import { EVERYTHING, FILESYSTEM, TINY } from './mcp-stack';

/**
 * The `mcp.servers` of the MCP functions spec: server-everything (stdio and Streamable HTTP), the
 * filesystem server on a temporary folder, the test's own small servers, and an http server the
 * SSRF guard must refuse.
 */
export function testServers(o: {
  folder: string;
  eventLog: string;
  httpPort: number;
  sessionPort: number;
  token: string;
  /** Sent to the http servers; must never appear in a log. */
  headerSecret: string;
}): Record<string, unknown>[] {
  return [
    {
      name: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { MCP_TEST_TOKEN: o.token },
      timeout: '3s',
    },
    {
      name: 'fs',
      prefix: 'files',
      transport: 'stdio',
      command: process.execPath,
      args: [FILESYSTEM, o.folder],
    },
    // same prefix as server-everything: its `echo` collides and is renamed, not dropped
    {
      name: 'tiny',
      prefix: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [TINY],
      env: { EVENT_LOG: o.eventLog },
      timeout: '2s',
    },
    {
      name: 'web',
      transport: 'http',
      url: `http://127.0.0.1:${o.httpPort}/mcp`,
      allow_private_network: true,
      headers: { 'x-api-key': o.headerSecret },
      tools: { include: ['echo', 'get-sum'] },
    },
    {
      name: 'blocked',
      transport: 'http',
      url: `http://127.0.0.1:${o.httpPort}/mcp`,
      headers: { authorization: `Bearer ${o.headerSecret}` },
    },
    {
      name: 'isolated',
      transport: 'stdio',
      command: process.execPath,
      args: [TINY],
      network: false,
      tools: { include: ['reach'] },
    },
    {
      name: 'sessions',
      transport: 'http',
      url: `http://127.0.0.1:${o.sessionPort}/mcp`,
      allow_private_network: true,
    },
  ];
}
