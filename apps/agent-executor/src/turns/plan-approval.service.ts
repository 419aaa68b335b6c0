import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentRunReply,
  ConflictError,
  InvalidParamsError,
  NotFoundError,
  type Scope,
} from '@app/contracts';
import { rejectPlan } from '@app/agent-core';
import { type PlanDecision, undecided } from '../store/held-approval';
import { RunApprovalRepository } from '../store/run-approval.repository';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { requireReadable } from '../common/run-formats';
import { RunFinisherService } from './run-finisher.service';
import { RunHostService } from './run-host.service';
import { RunLeases } from './run-leases.service';
import { type RunRecord, RunRepository } from '../store/run.repository';

/** Who decides a held plan (the deciding key's principal and id, as the gateway names them), and why. */
export interface PlanDecider {
  decider?: string;
  decider_key?: string;
  /** A rejection's reason. */
  reason?: string;
}

/**
 * Approving or rejecting a plan held in `awaiting_approval`. The plan lives on the run's record,
 * so any executor can resume it; moving the status out of `awaiting_approval` is atomic, so a
 * plan is approved (or rejected, or cancelled) once, and the decision that won is on the run's
 * record in the same statement: who took it, with which key, when.
 */
@Injectable()
export class PlanApprovalService {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(RunHostService) private readonly host: RunHostService,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunApprovalRepository) private readonly approvals: RunApprovalRepository,
  ) {}

  async approve(
    runId: string,
    principal?: string,
    stream = false,
    scopes?: Scope[],
    decider: PlanDecider = {},
  ): Promise<AgentRunReply> {
    const record = await this.claim(runId, 'approve', principal, decider);
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

  /** The decider's `reason` is recorded with the decision and is the run's error. */
  async reject(runId: string, principal?: string, decider: PlanDecider = {}): Promise<AgentRunReply> {
    const record = await this.claim(runId, 'reject', principal, decider);
    const { plan, outcome } = rejectPlan(record.plan ?? undefined, decider.reason);
    if (plan) await this.runs.savePlan(runId, plan);
    return this.finisher.finishStored(record, outcome);
  }

  private async claim(
    runId: string,
    action: PlanDecision['action'],
    principal: string | undefined,
    decider: PlanDecider,
  ): Promise<RunRecord> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    requireReadable(runId, record);
    if (undecided(record.approvals).length > 0)
      throw new InvalidParamsError(
        [{ field: 'hash', message: 'the run holds function calls for approval: name the call and its hash' }],
        'invalid decision',
      );
    const lease = action === 'approve' ? this.leases.lease() : undefined;
    if (!(await this.approvals.decidePlan(runId, planDecisionOf(record, action, decider), lease))) {
      const now = await this.runs.find(runId);
      throw new ConflictError(`run '${runId}' is not awaiting approval (${now?.status ?? record.status})`);
    }
    return record;
  }
}

/**
 * The decision on the record's held plan. It was asked when the run paused for it: nothing writes
 * a run's row while it waits on its plan, so the row's last write is that pause.
 */
function planDecisionOf(
  record: RunRecord,
  action: PlanDecision['action'],
  decider: PlanDecider,
): PlanDecision {
  const planEntry = record.trace.findLast((entry) => entry.kind === 'plan' || entry.kind === 'replan');
  return {
    action,
    revision: record.plan?.revision ?? 0,
    step: planEntry?.step ?? record.trace.at(-1)?.step ?? 0,
    decider: decider.decider ?? '',
    ...(decider.decider_key ? { decider_key: decider.decider_key } : {}),
    asked_at: record.updated_at.toISOString(),
    decided_at: new Date().toISOString(),
    ...(action === 'reject' && decider.reason ? { reason: decider.reason } : {}),
  };
}
