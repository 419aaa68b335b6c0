import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { platformVersion } from '@app/runtime';
import type { Principal } from '../../auth/api-keys.service';
import { McpToolsService } from './mcp-tools.service';

/**
 * The platform as an MCP server over Streamable HTTP, in stateless mode: every POST gets a fresh
 * server and transport bound to the calling key (no session to lose, any gateway replica can
 * answer), and replies are plain JSON.
 */
@Injectable()
export class McpService {
  constructor(@Inject(McpToolsService) private readonly tools: McpToolsService) {}

  /** One POST's JSON-RPC message(s), answered. */
  async handle(request: Request, body: unknown, principal: Principal): Promise<Response> {
    const server = new Server(
      { name: 'agentchassis', version: platformVersion() },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: await this.tools.list(principal),
    }));
    server.setRequestHandler(CallToolRequestSchema, (call) =>
      this.tools.call(principal, call.params.name, call.params.arguments ?? {}),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      void server.close();
    }
  }
}
