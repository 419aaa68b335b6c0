import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CreateDelayBody, ListDelaysQuery, parseDto } from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import type { TaskCaller } from './task-caller';
import { TasksService } from './tasks.service';

/** One-off tasks (seed 000 §2.4.4). */
@Controller('api/v1/delays')
export class DelaysController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  async list(@Query() query: unknown, @CurrentCaller() caller: TaskCaller) {
    return {
      delays: await this.tasks.listDelays(parseDto(ListDelaysQuery, query ?? {}, 'query'), caller),
    };
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.createDelay(parseDto(CreateDelayBody, body, 'request body'), caller);
  }

  @Get(':name')
  get(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.getDelay(name, caller);
  }

  /** Cancels a pending delay; its record stays (status `cancelled`). */
  @Delete(':name')
  cancel(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.cancelDelay(name, caller);
  }
}
