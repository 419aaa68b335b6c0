import { Controller, Delete, Get, HttpCode, Inject, Param } from '@nestjs/common';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { resourceId } from '../runs/resource-id';
import { SessionsService } from './sessions.service';

@Controller('api/v1/sessions')
export class SessionsController {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

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
