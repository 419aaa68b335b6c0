import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { PersistenceModule } from '@app/persistence';
import { RedisModule } from '@app/runtime';

@Module({})
export class SchedulerModule {
  static register(runtime: DynamicModule, config: PlatformConfig): DynamicModule {
    return {
      module: SchedulerModule,
      imports: [runtime, PersistenceModule.forRoot(config.database.url), RedisModule.forRoot(config.redis.url)],
    };
  }
}
