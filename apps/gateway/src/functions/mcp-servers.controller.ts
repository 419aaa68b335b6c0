import { Controller, Get, Inject } from '@nestjs/common';
import { McpServerList } from '@app/contracts';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { McpServerStatusService } from './mcp-server-status.service';

@Controller('api/v1/mcp/servers')
export class McpServersController {
  constructor(@Inject(McpServerStatusService) private readonly servers: McpServerStatusService) {}

  @Get()
  @ApiRoute({
    summary: 'The MCP servers mounted as functions, and their state',
    description:
      'Each configured MCP server the function runners connect to: `ready`, `connecting` or `down` (with ' +
      'why), and how many of its tools are served as functions. `answered: false` when no runner answered.',
    tag: 'functions',
    response: McpServerList,
  })
  list() {
    return this.servers.list();
  }
}
