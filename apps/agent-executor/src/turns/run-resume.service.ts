import { Inject, Injectable } from '@nestjs/common';
import type { AgentRunReply, RunResumedEvent, TraceStep } from '@app/contracts';
import { type ClientResults, JournalReplay } from '@app/agent-core';
import type { AgentProfile } from '../agents/agent-profile';
import { RunEventsPublisher } from '../events/run-events.publisher';
import { RunJournalStore } from '../journal/run-journal.store';
import { appliedDecisions } from './held-calls';
import type { RunRecord } from '../store/run.repository';
import { RunHostService } from './run-host.service';
import { RunLeases } from './run-leases.service';

/**
 * Carries a stored run on from its journal, on the executor that holds its lease: the strategy runs
 * again from the top, every journaled model step and call answered from the journal, the rest live;
 * calls held for approval run (or not) as they were decided, a reply that asked for the caller's
 * tools is answered with their results. A takeover, an approval decision and the caller's tool
 * results all go on this way.
 */
@Injectable()
export class RunResumeService {
  constructor(
    @Inject(RunHostService) private readonly host: RunHostService,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(RunLeases) private readonly leases: RunLeases,
  ) {}

  /** `extras.clientResults`: the caller's results for the client calls the run paused on. */
  async carryOn(
    record: RunRecord,
    profile: AgentProfile,
    how: { stream: boolean; takeover: boolean },
    extras: { clientResults?: ClientResults } = {},
  ): Promise<AgentRunReply> {
    const replay = new JournalReplay(await this.journal.load(record.id));
    const resumed: RunResumedEvent = {
      run_id: record.id,
      takeovers: record.takeovers,
      step: replay.resumesAt,
    };
    return this.host.carryOn(record, profile, {
      stream: how.stream,
      resume: {
        replay,
        resumed,
        approvals: appliedDecisions(record.approvals),
        ...(extras.clientResults ? { clientResults: extras.clientResults } : {}),
        ...(how.takeover ? { marker: takeoverStep(resumed, this.leases.owner) } : {}),
      },
      register: async () => this.events.announceResumed(resumed),
    });
  }
}

/** The takeover in the run's trace, before the first step run live. */
function takeoverStep(resumed: RunResumedEvent, owner: string): TraceStep {
  return {
    step: resumed.step,
    kind: 'takeover',
    observation: `taken over by ${owner} (takeover ${resumed.takeovers}); carried on from step ${resumed.step}`,
    elapsed_ms: 0,
  };
}
