import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CreateDelayBody, DelayList, ListDelaysQuery, parseDto, DelayTaskView } from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import type { TaskCaller } from './task-caller';
import { TasksService } from './tasks.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

/** One-off tasks. */
@Controller('api/v1/delays')
export class DelaysController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  @ApiRoute({ summary: 'The caller’s one-off tasks', query: ListDelaysQuery, response: DelayList })
  async list(@Query() query: unknown, @CurrentCaller() caller: TaskCaller) {
    return {
      delays: await this.tasks.listDelays(parseDto(ListDelaysQuery, query ?? {}, 'query'), caller),
    };
  }

  @Post()
  @ApiRoute({
    summary: 'Create a one-off task',
    body: CreateDelayBody,
    response: DelayTaskView,
    errors: { 409: 'conflict: the name is taken, or the owner has too many tasks' },
  })
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.createDelay(parseDto(CreateDelayBody, body, 'request body'), caller);
  }

  @Get(':name')
  @ApiRoute({ summary: 'One one-off task', response: DelayTaskView })
  get(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.getDelay(name, caller);
  }

  /** Cancels a pending delay; its record stays (status `cancelled`). */
  @Delete(':name')
  @ApiRoute({ summary: 'Cancel a pending delay (its record stays)', response: DelayTaskView })
  cancel(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.cancelDelay(name, caller);
  }
}
