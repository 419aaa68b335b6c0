import { Module } from '@nestjs/common';
import { CronsController } from './crons.controller';
import { DelaysController } from './delays.controller';
import { TasksService } from './tasks.service';

@Module({ controllers: [DelaysController, CronsController], providers: [TasksService] })
export class TasksModule {}
