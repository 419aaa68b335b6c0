import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CreateCronBody, ListCronsQuery, parseDto } from '@app/contracts';
import { CurrentCaller } from '../auth/principal.decorator';
import type { TaskCaller } from './task-caller';
import { TasksService } from './tasks.service';

/** Recurring tasks (seed 000 §2.4.4); `GET /crons/:name` adds the task's recent fires. */
@Controller('api/v1/crons')
export class CronsController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  async list(@Query() query: unknown, @CurrentCaller() caller: TaskCaller) {
    return { crons: await this.tasks.listCrons(parseDto(ListCronsQuery, query ?? {}, 'query'), caller) };
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.createCron(parseDto(CreateCronBody, body, 'request body'), caller);
  }

  @Get(':name')
  get(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.getCron(name, caller);
  }

  @Delete(':name')
  remove(@Param('name') name: string, @CurrentCaller() caller: TaskCaller) {
    return this.tasks.deleteCron(name, caller);
  }
}
