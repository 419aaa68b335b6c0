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
import { requireReadable } from '../common/run-formats';
import { RunFinisherService } from './run-finisher.service';
import { RunHostService } from './run-host.service';
import { RunLeases } from './run-leases.service';
import { type RunRecord, RunRepository } from '../store/run.repository';

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
    @Inject(RunHostService) private readonly host: RunHostService,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunLeases) private readonly leases: RunLeases,
  ) {}

  async approve(runId: string, principal?: string, stream = false, scopes?: Scope[]): Promise<AgentRunReply> {
    const record = await this.claim(runId, 'running', principal);
    const profile = await this.profiles.get(record.agent);
    // The approver's scopes, else the caller's: a takeover of the approved run reads the same.
    const options = { ...record.turn_options, ...(scopes ? { scopes } : {}), approved: true };
    return this.host.carryOn({ ...record, turn_options: options }, profile, {
      stream,
      prior: {
        usage: record.usage,
        trace: record.trace,
        usedTools: record.used_tools,
        totalMs: record.total_ms,
        plan: record.plan ?? { revision: 0, steps: [] },
      },
      register: async () => void (await this.leases.acquire(runId, options)),
    });
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
    requireReadable(runId, record);
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
