import { Controller, Get, Inject, Query } from '@nestjs/common';
import { parseDto, type Scope, UsageQuery, UsageView } from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { UsageService } from './usage.service';

@Controller('api/v1/usage')
export class UsageController {
  constructor(@Inject(UsageService) private readonly usage: UsageService) {}

  @Get()
  @ApiRoute({
    summary: 'Runs, tokens, cost and latency over the last day or week, by agent and by key',
    description:
      "The caller's runs (an admin key: every principal's), counted in buckets of an hour (`window=day`, " +
      'the default) or six hours (`window=week`), from the database.',
    query: UsageQuery,
    response: UsageView,
  })
  stats(@Query() query: unknown, @CurrentCaller() caller: { principal: string; scopes: Scope[] }) {
    return this.usage.stats(parseDto(UsageQuery, query ?? {}, 'query'), caller);
  }
}
