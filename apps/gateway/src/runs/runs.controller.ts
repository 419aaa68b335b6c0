import { Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ListRunsQuery, parseDto } from '@app/contracts';
import type { Response } from 'express';
import type { Scope } from '@app/contracts';
import { CurrentKeyId, CurrentPrincipal, CurrentScopes } from '../auth/principal.decorator';
import { wantsEventStream } from '../chat/chat.controller';
import { resourceId } from './resource-id';
import { RunsService } from './runs.service';

@Controller('api/v1/runs')
export class RunsController {
  constructor(@Inject(RunsService) private readonly runs: RunsService) {}

  /** The caller's runs, newest first: filters `session_id`, `status`, `agent`; `limit`, `cursor`. */
  @Get()
  list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.runs.list(parseDto(ListRunsQuery, query ?? {}, 'query'), principal);
  }

  /** The run with its trace, plan, tool statistics and usage. */
  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.runs.get(resourceId('run', id), principal);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.runs.cancel(resourceId('run', id), principal);
  }

  /** Runs the held plan; answers with the chat response, or streams it with `Accept: text/event-stream`. */
  @Post(':id/approve')
  async approve(
    @Param('id') id: string,
    @Headers('accept') accept: string | undefined,
    @CurrentPrincipal() principal: string,
    @CurrentKeyId() keyId: string,
    @CurrentScopes() scopes: Scope[],
    @Res() res: Response,
  ): Promise<void> {
    const runId = resourceId('run', id);
    const caller = { principal, keyId, scopes };
    if (wantsEventStream(accept)) return this.runs.approveStreaming(runId, caller, res);
    res.status(200).json(await this.runs.approve(runId, caller));
  }

  @Post(':id/reject')
  @HttpCode(200)
  reject(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.runs.reject(resourceId('run', id), principal);
  }
}
