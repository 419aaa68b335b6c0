import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import {
  FnExecReplyView,
  FunctionDefinition,
  FunctionList,
  InvokeFunctionBody,
  parseDto,
} from '@app/contracts';
import type { Principal } from '../auth/api-keys.service';
import { CurrentRunCaller } from '../auth/principal.decorator';
import { FunctionsService } from './functions.service';
import { idempotencyKeyOf } from '../common/idempotency-key';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/functions')
export class FunctionsController {
  constructor(@Inject(FunctionsService) private readonly functions: FunctionsService) {}

  @Get()
  @ApiRoute({ summary: "Every function's definition, from every provider", response: FunctionList })
  async list() {
    return { functions: await this.functions.list() };
  }

  @Get(':name')
  @ApiRoute({ summary: "One function's definition", response: FunctionDefinition })
  get(@Param('name') name: string) {
    return this.functions.get(name);
  }

  @Post(':name/invoke')
  @ApiRoute({
    summary: 'Run one function directly',
    body: InvokeFunctionBody,
    response: FnExecReplyView,
    headers: {
      'Idempotency-Key':
        'Makes the call safe to retry: a call with the same key (per function and principal, for ' +
        '`functions.outcome_ttl`, 24 h by default) and the same params gets the first call’s outcome, ' +
        'waiting for it if it still runs, instead of running again. 1 to 255 visible ASCII characters.',
    },
    errors: {
      409: 'idempotency_conflict: the Idempotency-Key was used with other params',
      429:
        'rate_limited / budget_exceeded: an agent’s function (provider `agents`) is a run of that agent, ' +
        'refused when the key has no run slot free, or its daily token quota or cost budget is spent',
      503: 'unavailable: no provider serves the function, or a keyed call’s outcome store is unreachable',
    },
  })
  @HttpCode(200)
  invoke(
    @Param('name') name: string,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyHeader: string | undefined,
    @CurrentRunCaller() caller: Principal,
  ) {
    const request = parseDto(InvokeFunctionBody, body ?? {}, 'request');
    return this.functions.invoke(name, request, caller, idempotencyKeyOf(idempotencyHeader));
  }
}
