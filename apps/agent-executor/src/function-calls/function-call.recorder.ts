import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { type FunctionCallBatch, Routes } from '@app/contracts';
import { FunctionCallRepository } from '../store/function-call.repository';

/**
 * NATS in: function providers hand over their finished calls in batches (`fn.calls.record`); the
 * executors share them in a queue group and write them, since providers never touch the database.
 */
@Injectable()
export class FunctionCallRecorder extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(FunctionCallRepository) private readonly calls: FunctionCallRepository,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [answer(Routes.fnCallsRecord, (batch) => this.record(batch))];
  }

  async record(batch: FunctionCallBatch): Promise<{ recorded: number }> {
    return { recorded: await this.calls.saveMany(batch.calls) };
  }
}
