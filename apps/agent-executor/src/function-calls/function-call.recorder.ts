import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionCallBatch, parseDto, QueueGroups, Subjects } from '@app/contracts';
import { FunctionCallRepository } from './function-call.repository';

/**
 * NATS in: function providers hand over their finished calls in batches (`fn.calls.record`); the
 * executors share them in a queue group and write them, since providers never touch the database.
 */
@Injectable()
export class FunctionCallRecorder implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(FunctionCallRepository) private readonly calls: FunctionCallRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Subjects.fnCallsRecord, (data) => this.record(data), {
      queue: QueueGroups.functionCallRecorders,
    });
  }

  async record(data: unknown): Promise<{ recorded: number }> {
    const batch = parseDto(FunctionCallBatch, data, 'function call batch');
    return { recorded: await this.calls.saveMany(batch.calls) };
  }
}
