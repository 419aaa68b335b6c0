import { Controller, Delete, Get, HttpCode, Inject, Param, Query } from '@nestjs/common';
import { ListSessionsQuery, parseDto, SessionPage, SessionView } from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { resourceId } from '../runs/resource-id';
import { SessionsService } from './sessions.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/sessions')
export class SessionsController {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

  /** The caller's sessions, most recently active first; `q` searches titles and messages. */
  @Get()
  @ApiRoute({
    summary: 'The caller’s sessions, most recently active first',
    query: ListSessionsQuery,
    response: SessionPage,
  })
  list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.sessions.list(parseDto(ListSessionsQuery, query ?? {}, 'query'), principal);
  }

  @Get(':id')
  @ApiRoute({ summary: 'A session with its messages', response: SessionView })
  get(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.sessions.get(resourceId('session', id), principal);
  }

  @Delete(':id')
  @ApiRoute({ summary: 'Delete a session and its history', response: null })
  @HttpCode(204)
  delete(@Param('id') id: string, @CurrentPrincipal() principal: string): Promise<void> {
    return this.sessions.delete(resourceId('session', id), principal);
  }
}
