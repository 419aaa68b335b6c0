import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { parseDto, type Scope } from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import { InvokeFunctionDto } from './dto/invoke-function.dto';
import { FunctionsService } from './functions.service';

@Controller('api/v1/functions')
export class FunctionsController {
  constructor(@Inject(FunctionsService) private readonly functions: FunctionsService) {}

  @Get()
  async list() {
    return { functions: await this.functions.list() };
  }

  @Get(':name')
  get(@Param('name') name: string) {
    return this.functions.get(name);
  }

  @Post(':name/invoke')
  @HttpCode(200)
  invoke(
    @Param('name') name: string,
    @Body() body: unknown,
    @CurrentCaller() caller: { principal: string; scopes: Scope[] },
  ) {
    return this.functions.invoke(name, parseDto(InvokeFunctionDto, body ?? {}, 'request'), caller);
  }
}
