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
import { traceUrl } from './trace-url';
import { RunFinisherService } from './run-finisher.service';
import { RunListRepository } from './run-list.repository';
import type { ExecutorRun } from '../engine/executor-run';
import { RunRepository } from './run.repository';

const CANCELLED_REPLY = 'The run was cancelled.';

/**
 * Listing, reading and cancelling runs. The executor that owns a run in flight answers `agent.interrupt.<runId>` (no
 * queue group: only it listens) by aborting the run's signal; whichever executor receives the
 * cancel finds the run's state and asks the owner. A run paused for approval or for client tool
 * results is cancelled in the database; a run whose owner died is closed there too.
 */
@Injectable()
export class RunControlService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunListRepository) private readonly listing: RunListRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** No principal means authentication is off: every run is listed. */
  list(query: ListRunsQuery, principal?: string): Promise<Page<RunSummary>> {
    return this.listing.list(principal || undefined, query);
  }

  async view(runId: string, principal?: string): Promise<RunView> {
    const found = await this.runs.view(runId);
    if (!found) throw new NotFoundError('run', runId);
    requireOwner('run', runId, found.owner, principal);
    return {
      ...found.view,
      trace_url: traceUrl(this.config.tracing.trace_url_template, found.view.trace_id),
    };
  }

  /** Listens for this run's interrupt until `ended` settles; the interrupt is answered with the ending. */
  track(run: ExecutorRun, ended: Promise<AgentRunReply>): void {
    const subscription = this.bus.serve(Routes.agentRunInterrupt(run.runId), async () => {
      run.abort('cancelled');
      return ended;
    });
    void ended.then(
      () => subscription.unsubscribe(),
      () => subscription.unsubscribe(),
    );
  }

  async cancel(runId: string, principal?: string): Promise<AgentRunReply> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    if (record.status === 'running') {
      try {
        return await this.bus.request(Routes.agentRunInterrupt(runId));
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'unavailable')) throw err;
        // Nobody owns it: its executor stopped mid-run.
        if (await this.runs.transition(runId, 'running', 'cancelled')) {
          return this.finisher.finishStored(record, {
            finishReason: 'cancelled',
            reply: CANCELLED_REPLY,
            error: 'its executor stopped',
          });
        }
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
}
