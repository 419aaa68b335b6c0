import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  CreateCronBody,
  CronList,
  ListCronsQuery,
  parseDto,
  CronTaskDetail,
  CronTaskView,
} from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import type { TaskCaller } from './task-caller';
import { TasksService } from './tasks.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

/** Recurring tasks; `GET /crons/:name` adds the task's recent fires. */
@Controller('api/v1/crons')
export class CronsController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  @ApiRoute({ summary: 'The caller’s recurring tasks', query: ListCronsQuery, response: CronList })
  async list(@Query() query: unknown, @CurrentCaller() caller: TaskCaller) {
    return { crons: await this.tasks.listCrons(parseDto(ListCronsQuery, query ?? {}, 'query'), caller) };
  }

  @Post()
  @ApiRoute({
    summary: 'Create a recurring task',
    body: CreateCronBody,
    response: CronTaskView,
    errors: { 409: 'conflict: the name is taken, or the owner has too many tasks' },
  })
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.createCron(parseDto(CreateCronBody, body, 'request body'), caller);
  }

  @Get(':name')
  @ApiRoute({ summary: 'One recurring task', response: CronTaskDetail })
  get(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.getCron(name, caller);
  }

  @Delete(':name')
  @ApiRoute({ summary: 'Delete a recurring task', response: CronTaskView })
  remove(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.deleteCron(name, caller);
  }
}
