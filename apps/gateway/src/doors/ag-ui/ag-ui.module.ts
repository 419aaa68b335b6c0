import { Module } from '@nestjs/common';
import { ChatModule } from '../../chat/chat.module';
import { RunsModule } from '../../runs/runs.module';
import { AgUiController } from './ag-ui.controller';
import { AgUiService } from './ag-ui.service';

@Module({ imports: [ChatModule, RunsModule], controllers: [AgUiController], providers: [AgUiService] })
export class AgUiModule {}
