import { Inject, Injectable } from '@nestjs/common';
import type { AgentRunReply, RunResumedEvent, TraceStep } from '@app/contracts';
import {
  type ClientResults,
  ClientToolSet,
  JournalReplay,
  resumeFromJournal,
  type RunOutcome,
} from '@app/agent-core';
import { type AgentProfile, withInstructions } from '../agents/agent-profile';
import { decisionsOf } from '../store/held-approval';
import type { ExecutorRun } from './executor-run';
import { RunEngineService } from './run-engine.service';
import { RunJournalStore } from '../journal/run-journal.store';
import { RunEventsPublisher } from '../events/run-events.publisher';
import { SessionHistoryService } from './session-history.service';
import { SessionRepository } from '../store/session.repository';
import { RunExecutionService } from './run-execution.service';
import { RunLeases } from './run-leases.service';
import { boundedBy } from './run-lineage';
import type { RunRecord } from '../store/run.repository';

/**
 * Carries a stored run on from its journal, on the executor that holds its lease: the strategy runs
 * again from the top, every journaled model step and call answered from the journal, the rest live;
 * calls held for approval run (or not) as they were decided. Both a takeover and an approval
 * decision go on this way.
 */
@Injectable()
export class RunResumeService {
  constructor(
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(RunEngineService) private readonly engine: RunEngineService,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunExecutionService) private readonly execution: RunExecutionService,
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
    const { scopes, key_id: keyId, instructions, approved, lineage } = record.turn_options;
    // approved: the run already went through its hold; running from the top must not hold it again
    const own = withInstructions(approved ? { ...profile, plan_approval: false } : profile, instructions);
    const run = this.engine.newRun(
      {
        runId: record.id,
        sessionId: record.session_id ?? '',
        principal: record.owner || undefined,
        ...(keyId ? { keyId } : {}),
        scopes,
        stream: how.stream,
        ...(lineage ? { chain: lineage.chain } : {}),
      },
      // a child run keeps its caller's bounds (its deadline is absolute)
      lineage ? boundedBy(own, lineage) : own,
    );
    // the caller's tools, offered again as when the run began (its prompt is the same)
    const clientTools = record.turn_options.client_tools;
    run.clientTools = clientTools?.length ? new ClientToolSet(clientTools) : undefined;
    const resumed: RunResumedEvent = {
      run_id: record.id,
      takeovers: record.takeovers,
      step: replay.resumesAt,
    };
    return this.execution.execute(
      run,
      record.input,
      async () => this.events.announceResumed(resumed),
      () => this.work(run, record, replay, how.takeover ? resumed : undefined, extras.clientResults),
      resumed,
    );
  }

  private async work(
    run: ExecutorRun,
    record: RunRecord,
    replay: JournalReplay,
    takeover?: RunResumedEvent,
    clientResults?: ClientResults,
  ): Promise<RunOutcome> {
    const ctx = {
      ...resumeFromJournal(this.engine.contextFor(run), replay),
      approvals: decisionsOf(record.approvals),
      ...(clientResults ? { clientResults } : {}),
    };
    const session = record.session_id ? await this.sessions.find(record.session_id) : null;
    const history = session ? await this.history.load(ctx, run, session) : [];
    try {
      return await this.engine.work(ctx, [...history, { role: 'user', content: record.input }]);
    } finally {
      if (takeover) markTakeover(run, takeover, this.leases.owner);
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
  run.insertTrace(step);
}
