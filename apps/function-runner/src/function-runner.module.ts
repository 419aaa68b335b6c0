import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { FunctionsModule } from './functions/functions.module';

@Module({})
export class FunctionRunnerModule {
  static register(runtime: DynamicModule, _config: PlatformConfig): DynamicModule {
    return { module: FunctionRunnerModule, imports: [runtime, FunctionsModule] };
  }
}
