import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';

@Module({})
export class FunctionRunnerModule {
  static register(runtime: DynamicModule, _config: PlatformConfig): DynamicModule {
    return { module: FunctionRunnerModule, imports: [runtime] };
  }
}
