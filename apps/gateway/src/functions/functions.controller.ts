import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import {
  FnExecReplyView,
  FunctionDefinition,
  FunctionList,
  InvokeFunctionBody,
  parseDto,
  type Scope,
} from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import { FunctionsService } from './functions.service';
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
  @ApiRoute({ summary: 'Run one function directly', body: InvokeFunctionBody, response: FnExecReplyView })
  @HttpCode(200)
  invoke(
    @Param('name') name: string,
    @Body() body: unknown,
    @CurrentCaller() caller: { principal: string; scopes: Scope[] },
  ) {
    return this.functions.invoke(name, parseDto(InvokeFunctionBody, body ?? {}, 'request'), caller);
  }
}
