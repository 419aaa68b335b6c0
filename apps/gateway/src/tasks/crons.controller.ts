import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CreateCronBody, ListCronsQuery, parseDto } from '@app/contracts';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { TasksService } from './tasks.service';

/** Recurring tasks (seed 000 §2.4.4); `GET /crons/:name` adds the task's recent fires. */
@Controller('api/v1/crons')
export class CronsController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Get()
  async list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return { crons: await this.tasks.listCrons(parseDto(ListCronsQuery, query ?? {}, 'query'), principal) };
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @CurrentPrincipal() principal: string) {
    return this.tasks.createCron(parseDto(CreateCronBody, body, 'request body'), principal);
  }

  @Get(':name')
  get(@Param('name') name: string, @CurrentPrincipal() principal: string) {
    return this.tasks.getCron(name, principal);
  }

  @Delete(':name')
  remove(@Param('name') name: string, @CurrentPrincipal() principal: string) {
    return this.tasks.deleteCron(name, principal);
  }
}
