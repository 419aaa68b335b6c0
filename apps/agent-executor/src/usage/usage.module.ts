import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module';
import { UsageHandler } from './usage.handler';
import { UsageService } from './usage.service';

@Module({ imports: [StoreModule], providers: [UsageHandler, UsageService] })
export class UsageModule {}
