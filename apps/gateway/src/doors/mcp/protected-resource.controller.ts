import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { PlatformConfig } from '@app/config';
import { SCOPES } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { baseUrlOf } from '../../common/error-shapes';
import { ApiRoute } from '../../common/openapi/api-route.decorator';

const DOC = {
  tag: 'mcp',
  summary: "`/mcp`'s OAuth protected-resource metadata (RFC 9728), as MCP clients discover authorization",
  status: 200,
  content: { 'application/json': { schema: { type: 'object', description: 'RFC 9728 resource metadata' } } },
} as const;

/**
 * What an MCP client reads after a 401 from `/mcp` (its `WWW-Authenticate` points here): the
 * resource, the bearer header it takes (the platform's API keys), and the OAuth authorization
 * servers that issue tokens for it when the operator has one (`mcp.authorization_servers`).
 */
@Controller('.well-known')
export class ProtectedResourceController {
  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  @Get('oauth-protected-resource/mcp')
  @ApiRoute(DOC)
  forMcp(@Req() req: Request) {
    return this.metadata(req);
  }

  @Get('oauth-protected-resource')
  @ApiRoute(DOC)
  root(@Req() req: Request) {
    return this.metadata(req);
  }

  private metadata(req: Request) {
    const base = (this.config.gateway.public_url ?? baseUrlOf(req)).replace(/\/+$/, '');
    return {
      resource: `${base}/mcp`,
      authorization_servers: this.config.mcp.authorization_servers,
      bearer_methods_supported: ['header'],
      scopes_supported: [...SCOPES],
      resource_name: 'AgentChassis',
      resource_documentation: `${base}/api/docs`,
    };
  }
}
