import { Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionClient } from '@app/functions';
import { FunctionCallRecorder } from './function-call.recorder';
import { FunctionCallRepository } from './function-call.repository';
import { FunctionInvokeHandler } from './function-invoke.handler';

/** Function calls seen from the executor: direct invocations for the API, and their records. */
@Module({
  providers: [
    FunctionCallRepository,
    FunctionCallRecorder,
    FunctionInvokeHandler,
    { provide: FunctionClient, inject: [Bus], useFactory: (bus: Bus) => new FunctionClient(bus) },
  ],
})
export class FunctionCallsModule {}
