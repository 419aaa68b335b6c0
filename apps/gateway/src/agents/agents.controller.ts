import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import {
  AgentProfileFields,
  AgentProfileView,
  NAME_PATTERN,
  AgentNotFoundError,
  InvalidParamsError,
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
    return this.agents.get(agentName(name));
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

  /** Replaces a profile created over the API, every field; one from the configuration file is refused. */
  @Put(':name')
  @ApiRoute({
    summary: 'Replace an agent profile',
    description:
      'The whole profile, validated as for creating one: fields left out take their defaults. Only a ' +
      'profile created over the API can be changed; the next run of the agent uses the new profile.',
    body: AgentProfileFields,
    response: AgentProfileView,
    errors: {
      400: 'invalid_params: a bad field, or a `name` other than the one in the path',
      404: 'not_found: no such agent',
      409: 'conflict: the profile comes from the configuration file (or is built in)',
    },
  })
  update(@Param('name') name: string, @Body() body: unknown, @CurrentPrincipal() principal: string) {
    const target = agentName(name);
    const withName = body && typeof body === 'object' && !('name' in body) ? { ...body, name: target } : body;
    const profile = parseDto(AgentProfileFields, withName, 'agent profile');
    if (profile.name !== target)
      throw new InvalidParamsError([{ field: 'name', message: `must be '${target}', the agent changed` }]);
    return this.agents.update(profile, principal);
  }

  @Delete(':name')
  @ApiRoute({
    summary: 'Delete an agent profile',
    description: 'Its runs and sessions stay. Only a profile created over the API can be deleted.',
    response: null,
    errors: { 409: 'conflict: the profile comes from the configuration file (or is built in)' },
  })
  @HttpCode(204)
  async delete(@Param('name') name: string, @CurrentPrincipal() principal: string): Promise<void> {
    await this.agents.delete(agentName(name), principal);
  }
}

/** A name that could never be an agent's names none: a 404. */
function agentName(name: string): string {
  if (!NAME_PATTERN.test(name)) throw new AgentNotFoundError(name.slice(0, 64));
  return name;
}
