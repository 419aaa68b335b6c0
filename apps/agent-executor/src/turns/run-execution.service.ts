import { Inject, Injectable } from '@nestjs/common';
import { type AgentRunReply, RunHandedOverError, type RunResumedEvent } from '@app/contracts';
import { Logger } from '@app/observability';
import { frameRun, type JournalEntry, type RunOutcome } from '@app/agent-core';
import { RunJournalStore } from '../journal/run-journal.store';
import type { ExecutorRun } from './executor-run';
import { endsTurn, RunFinisherService } from './run-finisher.service';
import { RunLeases } from './run-leases.service';
import { RunsInFlight } from './runs-in-flight';

/**
 * A run's work in the core's run frame (`frameRun`), with what the executor adds: the run
 * cancellable and open to the caller's messages while it runs, its lease held meanwhile, an
 * unexpected error logged (the caller reads only `internal error`), the run finished and recorded
 * — unless it was handed over to another executor meanwhile, which then ends it: it is answered
 * `RunHandedOverError`, so its caller follows the stored run.
 */
@Injectable()
export class RunExecutionService {
  constructor(
    @Inject(RunsInFlight) private readonly inFlight: RunsInFlight,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  /** `register` runs once the run can be cancelled (e.g. to create its record), before the work. */
  execute(
    run: ExecutorRun,
    input: string,
    register: () => Promise<void>,
    work: () => Promise<RunOutcome>,
    resumed?: RunResumedEvent,
  ): Promise<AgentRunReply> {
    let settle!: (reply: Promise<AgentRunReply>) => void;
    const reply = new Promise<AgentRunReply>((resolve) => (settle = resolve));
    this.inFlight.add(run, reply);
    settle(this.frame(run, input, register, work, resumed));
    return reply;
  }

  private async frame(
    run: ExecutorRun,
    input: string,
    register: () => Promise<void>,
    work: () => Promise<RunOutcome>,
    resumed?: RunResumedEvent,
  ): Promise<AgentRunReply> {
    // The journal's last entries, for the transaction that records the turn's end to take along.
    let tail: JournalEntry[] = [];
    const outcome = await frameRun(run, {
      hooks: run.hooks,
      store: {
        runEnded: async (ended, how) => {
          if (endsTurn(how) && !this.leases.wasHandedOver(ended.runId))
            tail = await this.journal.runEndedWithTail(ended);
          else await this.journal.runEnded(ended);
        },
      },
      register,
      resumed,
      started: () => this.leases.hold(run),
      stopped: () => this.leases.drop(run.runId),
      work,
      unexpected: (err) => {
        this.logger.error('run failed unexpectedly', { run_id: run.runId, err });
        return 'internal error';
      },
      lost: () => (this.leases.wasHandedOver(run.runId) ? new RunHandedOverError(run.runId) : undefined),
    });
    return this.finisher.finish(run, input, outcome, tail);
  }
}
