import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from '@app/contracts';
import type { AuthenticatedRequest } from '../auth/auth.guard';
import { McpService } from './mcp.service';

/** `/mcp`: MCP over Streamable HTTP, authenticated by the same API keys as the REST routes. */
@Controller('mcp')
export class McpController {
  constructor(@Inject(McpService) private readonly mcp: McpService) {}

  @Post()
  post(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    if (!req.principal) throw new AppError('unauthorized', 'an API key is required');
    return this.mcp.handle(req, res, req.principal);
  }

  /** Stateless: no server-initiated stream to open. */
  @Get()
  stream(@Res() res: Response): void {
    notAllowed(res);
  }

  /** Stateless: no session to end. */
  @Delete()
  end(@Res() res: Response): void {
    notAllowed(res);
  }
}

function notAllowed(res: Response): void {
  res
    .status(405)
    .set('allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST only' },
      id: null,
    });
}
