import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentRunReply,
  ConflictError,
  InvalidParamsError,
  NotFoundError,
  type Scope,
} from '@app/contracts';
import { rejectPlan } from '@app/agent-core';
import { undecided } from '../store/held-approval';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { RunEngineService } from './run-engine.service';
import { RunExecutionService } from './run-execution.service';
import { RunFinisherService } from './run-finisher.service';
import { RunLeases } from './run-leases.service';
import { type RunRecord, RunRepository } from '../store/run.repository';
import { SessionHistoryService } from './session-history.service';
import { SessionRepository } from '../store/session.repository';

/**
 * Approving or rejecting a plan held in `awaiting_approval`. The plan lives on the run's record,
 * so any executor can resume it; moving the status out of `awaiting_approval` is atomic, so a
 * plan is approved (or rejected, or cancelled) once.
 */
@Injectable()
export class PlanApprovalService {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(RunEngineService) private readonly engine: RunEngineService,
    @Inject(RunExecutionService) private readonly execution: RunExecutionService,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunLeases) private readonly leases: RunLeases,
  ) {}

  async approve(runId: string, principal?: string, stream = false, scopes?: Scope[]): Promise<AgentRunReply> {
    const record = await this.claim(runId, 'running', principal);
    const profile = await this.profiles.get(record.agent);
    const run = this.engine.newRun(
      {
        runId,
        sessionId: record.session_id ?? '',
        principal: record.owner || undefined,
        ...(record.turn_options.key_id ? { keyId: record.turn_options.key_id } : {}),
        scopes,
        stream,
      },
      profile,
      {
        usage: record.usage,
        trace: record.trace,
        usedTools: record.used_tools,
        totalMs: record.total_ms,
        plan: record.plan ?? { revision: 0, steps: [] },
      },
    );
    return this.execution.execute(
      run,
      record.input,
      async () =>
        void (await this.leases.acquire(runId, {
          ...record.turn_options,
          ...(scopes ? { scopes } : {}),
          approved: true,
        })),
      async () => {
        const ctx = this.engine.contextFor(run);
        const session = record.session_id ? await this.sessions.find(record.session_id) : null;
        const history = session ? await this.history.load(ctx, run, session) : [];
        return this.engine.work(ctx, [...history, { role: 'user', content: record.input }]);
      },
    );
  }

  async reject(runId: string, principal?: string): Promise<AgentRunReply> {
    const record = await this.claim(runId, 'cancelled', principal);
    const { plan, outcome } = rejectPlan(record.plan ?? undefined);
    if (plan) await this.runs.savePlan(runId, plan);
    return this.finisher.finishStored(record, outcome);
  }

  private async claim(runId: string, to: 'running' | 'cancelled', principal?: string): Promise<RunRecord> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    if (undecided(record.approvals).length > 0)
      throw new InvalidParamsError(
        [{ field: 'hash', message: 'the run holds function calls for approval: name the call and its hash' }],
        'invalid decision',
      );
    const lease = to === 'running' ? this.leases.lease() : undefined;
    if (!(await this.runs.transition(runId, 'awaiting_approval', to, lease))) {
      const now = await this.runs.find(runId);
      throw new ConflictError(`run '${runId}' is not awaiting approval (${now?.status ?? record.status})`);
    }
    return record;
  }
}
