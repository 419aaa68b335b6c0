import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import type { AgentProfile } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { RunFinisherService } from '../turns/run-finisher.service';
import { RunLeaseRepository } from '../store/run-lease.repository';
import { RunLeases } from '../turns/run-leases.service';
import { RunResumeService } from '../turns/run-resume.service';
import { type RunRecord, RunRepository } from '../store/run.repository';

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
    @Inject(RunResumeService) private readonly resumer: RunResumeService,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
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
    Metrics.runTakeovers().inc({ outcome: 'resumed' });
    await this.resumer.carryOn(record, profile, { stream: true, takeover: true });
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
