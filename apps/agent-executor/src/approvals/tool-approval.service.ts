import { Inject, Injectable } from '@nestjs/common';
import { type ApprovalDecision, paramErrors } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import {
  type AgentRunReply,
  AppError,
  ConflictError,
  InvalidParamsError,
  NotFoundError,
  type ToolDecision,
} from '@app/contracts';
import { Logger } from '@app/observability';
import { applySchemaTypes } from '@app/protocol';
import { PLATFORM_CONFIG } from '@app/runtime';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { requireReadable } from '../common/run-formats';
import { RunLeases } from '../turns/run-leases.service';
import { RunResumeService } from '../turns/run-resume.service';
import { type RunRecord, RunRepository } from '../store/run.repository';
import { FunctionCatalogService } from '../tools/function-catalog.service';
import { type HeldApproval, pendingView, undecided } from '../store/held-approval';
import { RunApprovalRepository } from '../store/run-approval.repository';

/** Expired runs looked at per sweep; the rest wait for the next one (or another executor). */
const EXPIRIES_PER_SWEEP = 20;
export const TIMEOUT_REASON = 'no decision was taken before the approval timeout';

/**
 * Decisions on function calls held for approval. A decision names the call's hash as it was shown;
 * once every held call of the run is decided, the executor that wins the run's row (one
 * conditional update, which also leases the run to it) carries the run on from its journal, on
 * whichever executor that is. The timeouts' default decisions are taken the same way by the sweep.
 */
@Injectable()
export class ToolApprovalService {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunApprovalRepository) private readonly rows: RunApprovalRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
    @Inject(RunResumeService) private readonly resumer: RunResumeService,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async decide(
    runId: string,
    decision: ToolDecision,
    principal?: string,
    stream = false,
  ): Promise<AgentRunReply> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    requireReadable(runId, record);
    if (record.status !== 'awaiting_approval')
      throw new ConflictError(`run '${runId}' is not awaiting approval (${record.status})`);
    const target = heldCall(record, decision.call_id);
    if (target.hash !== decision.hash)
      throw new ConflictError(
        `hash mismatch: call '${target.call_id}' (${target.function}) was shown with hash ${target.hash}, the decision names ${decision.hash}`,
        { call_id: target.call_id, expected: target.hash, given: decision.hash },
      );
    const decided: HeldApproval = {
      ...target,
      decision: { ...(await this.decisionOf(target, decision)), hash: target.hash },
      decided_by: 'caller',
      ...(decision.decider !== undefined ? { decider: decision.decider } : {}),
      ...(decision.decider_key !== undefined ? { decider_key: decision.decider_key } : {}),
      decided_at: new Date().toISOString(),
    };
    return this.apply(record, [decided], stream);
  }

  /** Applies the default decision of every held call past its timeout; returns how many runs it touched. */
  async expire(now = new Date()): Promise<number> {
    let touched = 0;
    for (const runId of await this.rows.expired(now, EXPIRIES_PER_SWEEP)) {
      if (this.leases.closed) break;
      const record = await this.runs.find(runId);
      if (record?.status !== 'awaiting_approval') continue;
      const profile = await this.profiles.get(record.agent).catch(() => undefined);
      const action = profile?.approval_default ?? this.config.executor.approval_default;
      const due = undecided(record.approvals).filter(
        (held) => held.expires_at !== null && new Date(held.expires_at) <= now,
      );
      const decided = due.map((held): HeldApproval => ({
        ...held,
        decision:
          action === 'approve'
            ? { action: 'approve', hash: held.hash }
            : { action: 'reject', reason: TIMEOUT_REASON, hash: held.hash },
        decided_by: 'timeout',
        decided_at: now.toISOString(),
      }));
      touched += 1;
      void this.apply(record, decided, false).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'conflict'))
          this.logger.error('an approval timeout could not be applied', { run_id: runId, err });
      });
    }
    return touched;
  }

  /** Records the decisions; once nothing waits any more, the run goes on here. */
  private async apply(record: RunRecord, decided: HeldApproval[], stream: boolean): Promise<AgentRunReply> {
    const approvals = record.approvals.map((held) => decided.find((d) => d.call_id === held.call_id) ?? held);
    const waiting = undecided(approvals);
    if (waiting.length > 0) {
      if (!(await this.rows.decide(record.id, record.updated_at, approvals))) throw changed(record.id);
      return waitingReply(record, waiting);
    }
    if (!(await this.rows.release(record.id, record.updated_at, approvals, this.leases.lease())))
      throw changed(record.id);
    const profile = await this.profiles.get(record.agent);
    return this.resumer.carryOn({ ...record, status: 'running', approvals }, profile, {
      stream,
      takeover: false,
    });
  }

  /** The decision as the engine applies it; edited arguments must satisfy the function's schema. */
  private async decisionOf(held: HeldApproval, decision: ToolDecision): Promise<ApprovalDecision> {
    if (decision.action === 'reject') return { action: 'reject', reason: decision.reason };
    if (decision.action === 'respond') {
      if (decision.result === undefined) throw invalid('respond.result', 'a result is required');
      return { action: 'respond', result: decision.result };
    }
    if (!decision.arguments) return { action: 'approve' };
    const definition = await this.catalog.find(held.function);
    if (!definition) throw new ConflictError(`function '${held.function}' no longer exists`);
    const args = applySchemaTypes({ name: held.function, params: decision.arguments }, definition.parameters);
    const errors = paramErrors(definition, args);
    if (errors.length > 0)
      throw new InvalidParamsError(
        errors.map((e) => ({ ...e, field: `edit.arguments.${e.field}` })),
        'invalid edited arguments',
      );
    return { action: 'approve', args };
  }
}

/** The held call a decision names: by id, or the only one waiting. */
function heldCall(record: RunRecord, callId?: string): HeldApproval {
  const waiting = undecided(record.approvals);
  if (waiting.length === 0)
    throw new ConflictError(
      `run '${record.id}' holds no function call for approval (a held plan is approved or rejected without a hash)`,
    );
  if (!callId) {
    if (waiting.length === 1) return waiting[0];
    throw invalid('call_id', `the run holds ${waiting.length} calls: name the one decided`);
  }
  const found = record.approvals.find((held) => held.call_id === callId);
  if (!found) throw new NotFoundError('held call', callId);
  if (found.decision) throw new ConflictError(`call '${callId}' is decided already`);
  return found;
}

function waitingReply(record: RunRecord, waiting: HeldApproval[]): AgentRunReply {
  return {
    session_id: record.session_id ?? '',
    run_id: record.id,
    reply: `Waiting for approval of ${waiting.map((held) => `${held.function} (${held.call_id})`).join(', ')}.`,
    function_calls: [],
    finish_reason: 'awaiting_approval',
    usage: record.usage,
    approvals: waiting.map(pendingView),
  };
}

function changed(runId: string): ConflictError {
  return new ConflictError(`run '${runId}' was decided meanwhile; read it again`);
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid decision');
}
