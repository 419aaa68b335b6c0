import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError, type RunResumedEvent, type TraceStep } from '@app/contracts';
import { JournalReplay, resumeFromJournal, type RunOutcome } from '@app/agent-core';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import { type AgentProfile, withInstructions } from '../agents/agent-profile';
import { boundedBy } from './run-lineage';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import type { ExecutorRun } from '../engine/executor-run';
import { RunEngineService } from '../engine/run-engine.service';
import { RunJournalStore } from '../engine/run-journal.store';
import { RunEventsPublisher } from '../events/run-events.publisher';
import { SessionHistoryService } from '../sessions/session-history.service';
import { SessionRepository } from '../sessions/session.repository';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunLeaseRepository } from './run-lease.repository';
import { RunLeases } from './run-leases.service';
import { type RunRecord, RunRepository } from './run.repository';

/** Lapsed runs looked at per sweep; the rest wait for the next one (or another executor). */
const CLAIMS_PER_SWEEP = 20;
export const UNRESUMABLE_REPLY = 'The run could not be carried on after its executor stopped.';

/**
 * Takes over runs whose executor stopped (their lease lapsed): claims each (one executor wins),
 * and carries it on from its journal — the strategy runs again from the top, every journaled model
 * step and call answered from the journal, the rest live. A run no executor can carry on (its
 * agent profile was deleted) ends failed with the reason.
 */
@Injectable()
export class RunTakeoverService implements OnModuleInit {
  constructor(
    @Inject(RunLeaseRepository) private readonly leaseRows: RunLeaseRepository,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(RunEngineService) private readonly engine: RunEngineService,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunExecutionService) private readonly execution: RunExecutionService,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    initialiseCounter(Metrics.runTakeovers(), [{ outcome: 'resumed' }, { outcome: 'failed' }]);
  }

  /** Claims the runs whose lease lapsed and carries each on; returns how many it took. */
  async sweep(now = new Date()): Promise<number> {
    let taken = 0;
    for (const lapsed of await this.leaseRows.lapsed(now, CLAIMS_PER_SWEEP)) {
      if (this.leases.closed) break;
      const { until } = this.leases.lease(now.getTime());
      if (!(await this.leaseRows.claim(lapsed.id, this.leases.owner, now, until))) continue;
      taken += 1;
      this.logger.info('took over a run whose executor stopped', {
        run_id: lapsed.id,
        from: lapsed.leaseOwner,
      });
      void this.resume(lapsed.id).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'unavailable'))
          this.logger.error('a run taken over failed to resume', { run_id: lapsed.id, err });
      });
    }
    return taken;
  }

  private async resume(runId: string): Promise<void> {
    const record = await this.runs.find(runId);
    if (!record || record.status !== 'running') return;
    const profile = await this.profileOf(record);
    if (!profile) {
      await this.finisher.finishStored(record, {
        finishReason: 'error',
        reply: UNRESUMABLE_REPLY,
        error: `its agent profile '${record.agent}' no longer exists`,
      });
      Metrics.runTakeovers().inc({ outcome: 'failed' });
      return;
    }
    const replay = new JournalReplay(await this.journal.load(runId));
    const { scopes, instructions, approved, lineage } = record.turn_options;
    // approved: the run already went through its hold; running from the top must not hold it again
    const own = withInstructions(approved ? { ...profile, plan_approval: false } : profile, instructions);
    const run = this.engine.newRun(
      {
        runId,
        sessionId: record.session_id ?? '',
        principal: record.owner || undefined,
        scopes,
        stream: true,
        ...(lineage ? { chain: lineage.chain } : {}),
      },
      // a child run keeps its caller's bounds (its deadline is absolute)
      lineage ? boundedBy(own, lineage) : own,
    );
    const resumed: RunResumedEvent = {
      run_id: runId,
      takeovers: record.takeovers,
      step: replay.resumesAt,
    };
    Metrics.runTakeovers().inc({ outcome: 'resumed' });
    await this.execution.execute(
      run,
      record.input,
      async () => this.events.announceResumed(resumed),
      () => this.work(run, record, replay, resumed),
      resumed,
    );
  }

  private async work(
    run: ExecutorRun,
    record: RunRecord,
    replay: JournalReplay,
    resumed: RunResumedEvent,
  ): Promise<RunOutcome> {
    const ctx = resumeFromJournal(this.engine.contextFor(run), replay);
    const session = record.session_id ? await this.sessions.find(record.session_id) : null;
    const history = session ? await this.history.load(ctx, run, session) : [];
    const outcome = await this.engine.work(ctx, [...history, { role: 'user', content: record.input }]);
    markTakeover(run, resumed, this.leases.owner);
    return outcome;
  }

  private async profileOf(record: RunRecord): Promise<AgentProfile | undefined> {
    try {
      return await this.profiles.get(record.agent);
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') return undefined;
      throw err;
    }
  }
}

/** The takeover in the run's trace, before the first step run live. */
function markTakeover(run: ExecutorRun, resumed: RunResumedEvent, owner: string): void {
  const step: TraceStep = {
    step: resumed.step,
    kind: 'takeover',
    observation: `taken over by ${owner} (takeover ${resumed.takeovers}); carried on from step ${resumed.step}`,
    elapsed_ms: 0,
  };
  const at = run.trace.findIndex((entry) => entry.step >= resumed.step);
  run.trace.splice(at === -1 ? run.trace.length : at, 0, step);
}
