import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { platformVersion } from '@app/runtime';
import type { Principal } from '../auth/api-keys.service';
import { McpToolsService } from './mcp-tools.service';

/**
 * The platform as an MCP server over Streamable HTTP, in stateless mode: every POST gets a fresh
 * server and transport bound to the calling key (no session to lose, any gateway replica can
 * answer), and replies are plain JSON.
 */
@Injectable()
export class McpService {
  constructor(@Inject(McpToolsService) private readonly tools: McpToolsService) {}

  async handle(req: Request, res: Response, principal: Principal): Promise<void> {
    const server = new Server(
      { name: 'agentchassis', version: platformVersion() },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: await this.tools.list(principal),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.tools.call(principal, request.params.name, request.params.arguments ?? {}),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}
