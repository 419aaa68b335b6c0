import { Controller, Delete, Get, Inject, Query } from '@nestjs/common';
import {
  MemoryForgetQuery,
  MemoryForgetReply,
  MemorySearchQuery,
  MemorySearchReply,
  parseDto,
} from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { MemoryService } from './memory.service';

@Controller('api/v1/memory')
export class MemoryController {
  constructor(@Inject(MemoryService) private readonly memory: MemoryService) {}

  /** Everything the caller's agents remember, whatever their scope, best match first. */
  @Get('search')
  @ApiRoute({
    summary: 'Search the caller’s long-term memory (full text, best match first)',
    query: MemorySearchQuery,
    response: MemorySearchReply,
  })
  search(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.memory.search(parseDto(MemorySearchQuery, query ?? {}, 'query'), principal);
  }

  /** Forgets all of the caller's memories, or one session's (`session_id`) or one run's (`run_id`). */
  @Delete()
  @ApiRoute({
    summary: 'Forget the caller’s memories: all, one session’s or one run’s',
    query: MemoryForgetQuery,
    response: MemoryForgetReply,
  })
  forget(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.memory.forget(parseDto(MemoryForgetQuery, query ?? {}, 'query'), principal);
  }
}
