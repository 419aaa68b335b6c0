import { Module } from '@nestjs/common';
import { ToolsModule } from '../tools/tools.module';
import { FunctionCallRecorder } from './function-call.recorder';
import { StoreModule } from '../store/store.module';
import { FunctionInvokeHandler } from './function-invoke.handler';

/** Function calls seen from the executor: direct invocations for the API, and their records. */
@Module({
  imports: [StoreModule, ToolsModule],
  providers: [FunctionCallRecorder, FunctionInvokeHandler],
})
export class FunctionCallsModule {}
