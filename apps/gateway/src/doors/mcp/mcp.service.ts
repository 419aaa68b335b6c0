import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
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
    const refused = invalidParams(body);
    if (refused) return Response.json(refused);
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

/** The schemas of the methods served, to read a request's params before the SDK does. */
const PARAMS = new Map<string, { safeParse(value: unknown): { success: boolean; error?: unknown } }>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/**
 * A request whose params do not fit its method answered -32602 with what is wrong, in a line (the
 * SDK would answer -32603 with its schema's whole report).
 */
function invalidParams(body: unknown): object | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  const schema = typeof method === 'string' ? PARAMS.get(method) : undefined;
  if (id === undefined || !schema) return undefined;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const issues = (parsed.error as { issues?: { path: (string | number)[]; message: string }[] }).issues ?? [];
  const what = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`)
    .join('; ');
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32602, message: `invalid params for ${String(method)}: ${what}` },
  };
}
