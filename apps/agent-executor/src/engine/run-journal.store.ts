import { Inject, Injectable } from '@nestjs/common';
import type { RunStore } from '@app/agent-core';
import { RunRepository } from '../runs/run.repository';

/**
 * The run engine's journal in the executor. What the executor stores today: the plan on the
 * run's record, every time it changes. The rest is stored elsewhere for now, so those methods
 * store nothing: a model step's reply and usage reach the record in the run's trace when the run
 * ends (RunFinisherService), a function call is recorded by its provider (`fn.calls`), and the
 * run's ending is written by the finisher with the session's turn, in one transaction.
 */
@Injectable()
export class RunJournalStore implements RunStore {
  constructor(@Inject(RunRepository) private readonly runs: RunRepository) {}

  modelStepCompleted(): void {
    // no-op: see the class comment
  }

  toolCallCompleted(): void {
    // no-op: see the class comment
  }

  async planChanged(run: Parameters<RunStore['planChanged']>[0]): Promise<void> {
    if (run.plan) await this.runs.savePlan(run.runId, run.plan);
  }

  runEnded(): void {
    // no-op: see the class comment
  }
}
