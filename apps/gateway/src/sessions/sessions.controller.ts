import { Controller, Delete, Get, HttpCode, Inject, Param, Query } from '@nestjs/common';
import { ListSessionsQuery, parseDto } from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { resourceId } from '../runs/resource-id';
import { SessionsService } from './sessions.service';

@Controller('api/v1/sessions')
export class SessionsController {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

  /** The caller's sessions, most recently active first; `q` searches titles and messages. */
  @Get()
  list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.sessions.list(parseDto(ListSessionsQuery, query ?? {}, 'query'), principal);
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.sessions.get(resourceId('session', id), principal);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@Param('id') id: string, @CurrentPrincipal() principal: string): Promise<void> {
    return this.sessions.delete(resourceId('session', id), principal);
  }
}
