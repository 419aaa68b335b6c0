import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  AppError,
  type AgentRunReply,
  ConflictError,
  type ListRunsQuery,
  NotFoundError,
  type Page,
  type RunSummary,
  type RunView,
  Routes,
} from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { requireOwner } from '../common/ownership';
import { runView } from './run-view';
import { modelNameOf } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { RunJournalRepository } from '../store/run-journal.repository';
import { decisionsOf, timelineOf, traceWithDecisions } from './run-timeline';
import { RunFinisherService } from '../turns/run-finisher.service';
import { RunListRepository } from '../store/run-list.repository';
import { type RunRecord, RunRepository } from '../store/run.repository';

const CANCELLED_REPLY = 'The run was cancelled.';

/**
 * Listing, reading and cancelling runs. Whichever executor receives the cancel finds the run's
 * state and asks its owner (the lease owner on its record) over `agent.interrupt.<executor>`, which
 * aborts the run's signal (`RunsInFlight`). A run paused for approval or for client tool results is
 * cancelled in the database; a run whose owner died, or no longer holds it, is closed there too.
 */
@Injectable()
export class RunControlService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunListRepository) private readonly listing: RunListRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(RunJournalRepository) private readonly journal: RunJournalRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
  ) {}

  /** No principal means authentication is off: every run is listed. */
  list(query: ListRunsQuery, principal?: string): Promise<Page<RunSummary>> {
    return this.listing.list(principal || undefined, query);
  }

  /** The run with its trace, and from its journal its waterfall; the decisions on its held calls and plan. */
  async view(runId: string, principal?: string): Promise<RunView> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    const view = runView(record, this.config.tracing.trace_url_template);
    const [timings, price] = await Promise.all([this.journal.timings(runId), this.priceOf(record.agent)]);
    const decisions = decisionsOf(record);
    return {
      ...view,
      trace: traceWithDecisions(view.trace, record),
      timeline: timelineOf(timings, record.created_at, view.usage, price),
      ...(decisions.length ? { decisions } : {}),
    };
  }

  /** The price of the agent's model now (it weighs each step's share of the run's cost); none for a deleted agent. */
  private async priceOf(agent: string) {
    const profile = await this.profiles.get(agent).catch(() => undefined);
    return profile ? this.config.pricing[modelNameOf(profile, this.config)] : undefined;
  }

  async cancel(runId: string, principal?: string): Promise<AgentRunReply> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    if (record.status === 'running') {
      const interrupted = await this.interruptHolder(record);
      if (interrupted) return interrupted;
      // Nobody holds it: its executor stopped mid-run (or the run ended meanwhile).
      if (await this.runs.transition(runId, 'running', 'cancelled')) {
        return this.finisher.finishStored(record, {
          finishReason: 'cancelled',
          reply: CANCELLED_REPLY,
          error: 'its executor stopped',
        });
      }
    }
    if (
      record.status === 'awaiting_approval' &&
      (await this.runs.transition(runId, 'awaiting_approval', 'cancelled'))
    ) {
      return this.finisher.finishStored(record, { finishReason: 'cancelled', reply: CANCELLED_REPLY });
    }
    if (
      record.status === 'awaiting_tool_results' &&
      (await this.runs.transition(runId, 'awaiting_tool_results', 'cancelled'))
    ) {
      return this.finisher.closePaused(record, { finishReason: 'cancelled', reply: CANCELLED_REPLY });
    }
    const now = await this.runs.find(runId);
    throw new ConflictError(`run '${runId}' has already ended (${now?.status ?? record.status})`);
  }

  /** The run's ending from the executor holding it; undefined when none does (dead, or the run is gone). */
  private async interruptHolder(record: RunRecord): Promise<AgentRunReply | undefined> {
    if (!record.lease_owner) return undefined;
    try {
      return await this.bus.request(Routes.agentRunInterrupt(record.lease_owner), { run_id: record.id });
    } catch (err) {
      if (err instanceof AppError && err.code === 'unavailable') return undefined;
      throw err;
    }
  }
}
