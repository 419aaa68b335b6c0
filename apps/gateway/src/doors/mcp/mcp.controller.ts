import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { PlatformConfig } from '@app/config';
import { AppError, JsonRpcErrorResponse } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import type { AuthenticatedRequest } from '../../auth/auth.guard';
import { ApiRoute } from '../../common/openapi/api-route.decorator';
import { sendWebResponse, webRequestOf } from '../../common/web-exchange';
import { checkOrigin } from './mcp-origins';
import { McpService } from './mcp.service';

const NOT_ALLOWED = 'method_not_allowed: this MCP server is stateless; POST only';

/** `/mcp`: MCP over Streamable HTTP, authenticated by the same API keys as the REST routes. */
@Controller('mcp')
export class McpController {
  constructor(
    @Inject(McpService) private readonly mcp: McpService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiRoute({
    summary: 'The platform as an MCP server (Streamable HTTP, stateless; JSON-RPC in and out)',
    tag: 'mcp',
    errorBody: JsonRpcErrorResponse,
    description:
      'Tools: the functions the key may invoke (`functions:invoke`) and `agent_<name>` for each agent it may chat with (`chat`).',
    status: 200,
    content: { 'application/json': { schema: { type: 'object', description: 'a JSON-RPC response' } } },
  })
  async post(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    checkOrigin(this.config, { host: req.get('host'), origin: req.get('origin'), protocol: req.protocol });
    if (!req.principal) throw new AppError('unauthorized', 'an API key is required');
    await sendWebResponse(res, await this.mcp.handle(webRequestOf(req), req.body, req.principal));
  }

  /** Stateless: no server-initiated stream to open. */
  @Get()
  @ApiRoute({
    summary: 'Not offered: the server is stateless',
    tag: 'mcp',
    errorBody: JsonRpcErrorResponse,
    errors: { 405: NOT_ALLOWED },
  })
  stream(@Res() res: Response): void {
    notAllowed(res);
  }

  /** Stateless: no session to end. */
  @Delete()
  @ApiRoute({
    summary: 'Not offered: the server is stateless',
    tag: 'mcp',
    errorBody: JsonRpcErrorResponse,
    errors: { 405: NOT_ALLOWED },
  })
  end(@Res() res: Response): void {
    notAllowed(res);
  }
}

/** A stateless MCP server answers GET and DELETE with 405 (the transport's rule), in the platform's error shape. */
function notAllowed(res: Response): never {
  res.set('allow', 'POST');
  throw new AppError('method_not_allowed', NOT_ALLOWED);
}
