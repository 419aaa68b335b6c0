import { Body, Controller, Get, Inject, Param, Post } from '@nestjs/common';
import {
  AgentProfileFields,
  AgentProfileView,
  NAME_PATTERN,
  AgentNotFoundError,
  parseDto,
} from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { AgentsService } from './agents.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/agents')
export class AgentsController {
  constructor(@Inject(AgentsService) private readonly agents: AgentsService) {}

  @Get()
  @ApiRoute({ summary: 'Every agent profile', response: [AgentProfileView] })
  list() {
    return this.agents.list();
  }

  @Get(':name')
  @ApiRoute({ summary: 'One agent profile', response: AgentProfileView })
  get(@Param('name') name: string) {
    if (!NAME_PATTERN.test(name)) throw new AgentNotFoundError(name.slice(0, 64));
    return this.agents.get(name);
  }

  /** Creates a profile (201); the name must be free. Endpoints and keys can only come from the config file. */
  @Post()
  @ApiRoute({
    summary: 'Create an agent profile',
    body: AgentProfileFields,
    response: AgentProfileView,
    errors: { 409: 'conflict: the name is taken' },
  })
  create(@Body() body: unknown, @CurrentPrincipal() principal: string) {
    return this.agents.create(parseDto(AgentProfileFields, body, 'agent profile'), principal);
  }
}
