import { Inject, Injectable } from '@nestjs/common';
import { type AgentRunReply, RunHandedOverError, type RunResumedEvent } from '@app/contracts';
import { Logger } from '@app/observability';
import { ended, endedByHook, phaseAfter, type RunOutcome } from '@app/agent-core';
import { RunJournalStore } from '../engine/run-journal.store';
import type { ExecutorRun } from '../engine/executor-run';
import { RunFinisherService } from './run-finisher.service';
import { RunLeases } from './run-leases.service';
import { RunsInFlight } from './runs-in-flight';

/**
 * The frame around a run's work, new or resumed: cancellable while it runs, `run_start` first
 * (`run_resumed` for a run taken over), never a crash (an unexpected error ends the run with
 * `error`), its hooks told how it ended, always finished and recorded (its journal written
 * first) — unless it was handed over to another executor meanwhile, which then ends it: it is
 * answered `RunHandedOverError`, so its caller follows the stored run.
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
  ) {
    try {
      await register();
    } catch (err) {
      run.close();
      throw err;
    }
    run.transition('running');
    if (resumed) run.emit('run_resumed', resumed);
    else
      run.emit('run_start', {
        run_id: run.runId,
        session_id: run.identity.sessionId,
        agent: run.profile.name,
        mode: run.profile.mode,
        protocol: run.profile.protocol,
      });
    this.leases.hold(run);
    let outcome: RunOutcome;
    try {
      outcome = await work();
    } catch (err) {
      this.logger.error('run failed unexpectedly', { run_id: run.runId, err });
      outcome = ended(run, run.abortReason ?? 'error', 'internal error');
    } finally {
      run.close();
      this.leases.drop(run.runId);
    }
    if (this.leases.wasHandedOver(run.runId)) {
      await this.journal.runEnded(run);
      throw new RunHandedOverError(run.runId);
    }
    outcome = await this.turnEnded(run, outcome);
    run.transition(phaseAfter(outcome.finishReason));
    await this.journal.runEnded(run);
    return this.finisher.finish(run, input, outcome);
  }

  /** The hooks hear how the turn ended; a `fail_closed` one that failed turns it into an error. */
  private async turnEnded(run: ExecutorRun, outcome: RunOutcome): Promise<RunOutcome> {
    try {
      await run.hooks?.onTurnEnd?.(run, outcome);
      return outcome;
    } catch (err) {
      return endedByHook(run, err);
    }
  }
}
