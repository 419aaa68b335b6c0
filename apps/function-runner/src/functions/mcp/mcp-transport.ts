import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig, McpStdioServer } from '@app/config';
import { UnavailableError } from '@app/contracts';
import { judgeAddress, RequestGuard } from '@app/functions';
import type { NetworkIsolation } from '../sandbox/network-isolation';
import { McpOAuthProvider } from './mcp-oauth';

const STDERR_TAIL_CHARS = 2_000;

export interface OpenedTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only), for the log when it fails. */
  stderrTail: () => string;
}

/**
 * A fresh transport for one connection attempt (a transport, like a Client, serves one
 * connection only). A stdio server gets exactly the configured environment: the SDK's own
 * inherited variables (HOME, USER, …) are removed, which Node's spawn does for undefined values.
 * With `network: false` it runs in an empty network namespace, like a custom function's sandbox.
 * An http server's host must pass the SSRF guard of `http_request` unless the config opts out.
 */
export async function openTransport(
  server: McpServerConfig,
  isolation: NetworkIsolation,
): Promise<OpenedTransport> {
  if (server.transport === 'stdio') {
    const cleared = Object.fromEntries(DEFAULT_INHERITED_ENV_VARS.map((name) => [name, undefined]));
    const [command, ...args] = [...isolationPrefix(server, isolation), server.command, ...server.args];
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: server.cwd,
      env: { ...cleared, ...server.env } as Record<string, string>,
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return { transport, stderrTail: () => tail.trim() };
  }
  const url = new URL(server.url);
  await guardOf(server.allow_private_network)
    .check(url)
    .catch((err: Error) => {
      throw new UnavailableError(
        `MCP server '${server.name}' refused by the SSRF guard: ${err.message.replace(/^http_request blocked: /, '')} ` +
          '(set allow_private_network: true for a server on a loopback or private address)',
      );
    });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: server.headers },
    redirectPolicy: 'same-origin',
    ...(server.oauth ? { authProvider: new McpOAuthProvider(server.oauth, url) } : {}),
  });
  return { transport, stderrTail: () => '' };
}

function isolationPrefix(server: McpStdioServer, isolation: NetworkIsolation): string[] {
  if (server.network) return [];
  if (!isolation.isolated)
    throw new UnavailableError(
      `MCP server '${server.name}' is configured with network: false, but this host cannot cut a process off the network: ${isolation.detail}`,
    );
  return isolation.prefix;
}

function guardOf(allowPrivate: boolean): RequestGuard {
  return new RequestGuard({
    allowedDomains: ['*'],
    allowedMethods: ['GET', 'POST', 'DELETE'],
    judge: allowPrivate ? () => ({ allowed: true }) : judgeAddress,
  });
}
