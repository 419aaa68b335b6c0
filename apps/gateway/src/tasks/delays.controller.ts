import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CreateDelayBody, ListDelaysQuery, parseDto } from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { TasksService } from './tasks.service';

/** One-off tasks (seed 000 §2.4.4). */
@Controller('api/v1/delays')
export class DelaysController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  async list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return {
      delays: await this.tasks.listDelays(parseDto(ListDelaysQuery, query ?? {}, 'query'), principal),
    };
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentPrincipal() principal: string) {
    return this.tasks.createDelay(parseDto(CreateDelayBody, body, 'request body'), principal);
  }

  @Get(':name')
  get(@Param('name') name: string, @CurrentPrincipal() principal: string) {
    return this.tasks.getDelay(name, principal);
  }

  /** Cancels a pending delay; its record stays (status `cancelled`). */
  @Delete(':name')
  cancel(@Param('name') name: string, @CurrentPrincipal() principal: string) {
    return this.tasks.cancelDelay(name, principal);
  }
}
