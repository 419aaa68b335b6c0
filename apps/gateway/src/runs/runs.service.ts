import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type AgentRunReply,
  hasScope,
  type ListRunsQuery,
  type Page,
  type RunRefRequest,
  type RunSummary,
  Routes,
  type RunView,
  type StepMessagesView,
  type ToolDecision,
} from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { UsageLimits } from '@app/limits';
import { type Caller, EXECUTOR_REPLY_GRACE_MS } from '../chat/chat.service';
import { followApproval } from '../chat/run-follower';
import { RunTakeovers } from '../chat/run-takeovers';
import { type RunEvents, runEvents } from '../chat/run-events';
import { RunEventLog } from '../chat/run-event-log';
import { usageAdded } from '../chat/usage-added';

/** The caller's runs; a run's trace, and the verbs on a run: cancel, approve (a plan or a held call), reject. */
@Injectable()
export class RunsService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
    @Inject(RunTakeovers) private readonly takeovers: RunTakeovers,
    @Inject(RunEventLog) private readonly events: RunEventLog,
  ) {}

  list(query: ListRunsQuery, principal: string): Promise<Page<RunSummary>> {
    return this.bus.request(Routes.agentRunList, principal ? { ...query, principal } : query);
  }

  get(runId: string, principal: string): Promise<RunView> {
    return this.bus.request(Routes.agentRunGet, ref(runId, principal));
  }

  /** What model step `step` of the run sent and got back, from its journal. */
  stepMessages(runId: string, step: number, principal: string): Promise<StepMessagesView> {
    return this.bus.request(Routes.agentRunStepMessages, { ...ref(runId, principal), step });
  }

  cancel(runId: string, principal: string): Promise<AgentRunReply> {
    return this.bus.request(Routes.agentRunCancel, ref(runId, principal));
  }

  /** Rejects a held plan; the run records who did, with which key, and why when told. */
  reject(runId: string, caller: Caller, reason?: string): Promise<AgentRunReply> {
    return this.bus.request(Routes.agentRunReject, {
      ...ref(runId, caller.principal),
      ...deciderOf(caller),
      ...(reason ? { reason } : {}),
    });
  }

  /** Runs a held plan, or (with `decision`) decides a held function call and carries the run on. */
  approve(runId: string, caller: Caller, decision?: ToolDecision): Promise<AgentRunReply> {
    return this.approveRequest(runId, caller, false, decision);
  }

  /** `approve`, as the run's events from its resumption to its next stop. */
  approveStream(runId: string, caller: Caller, decision?: ToolDecision): RunEvents {
    return runEvents(this.events, runId, () => this.approveRequest(runId, caller, true, decision));
  }

  /**
   * Running a held plan or call is a turn like any other: it takes a run slot and its tokens and
   * cost count against the key's day. The reply's usage covers the whole run, so only what it adds
   * to the usage at the pause is charged (what came before was charged with the earlier turn). An
   * admin key may decide any run's held call. The run is followed as a chat turn is: a lost bus
   * connection or executor does not lose its answer.
   */
  private async approveRequest(
    runId: string,
    caller: Caller,
    stream: boolean,
    decision?: ToolDecision,
  ): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + EXECUTOR_REPLY_GRACE_MS;
    const principal = decision && hasScope(caller.scopes, 'admin') ? '' : caller.principal;
    const before = (await this.get(runId, principal)).usage;
    const { reply } = await this.limits.withinLimits(caller, async () => {
      const reply = await followApproval(
        this.bus,
        {
          ...ref(runId, principal),
          stream,
          scopes: caller.scopes,
          ...(decision ? { decision: { ...decision, ...deciderOf(caller) } } : deciderOf(caller)),
        },
        { timeoutMs, takeovers: this.takeovers },
      );
      return { reply, usage: usageAdded(reply.usage, before) };
    });
    return reply;
  }
}

/** Who decides a held plan or call, for the run's record: the key's principal and id (never its secret). */
function deciderOf(caller: Caller): { decider: string; decider_key?: string } {
  return { decider: caller.principal, ...(caller.keyId ? { decider_key: caller.keyId } : {}) };
}

function ref(runId: string, principal: string): RunRefRequest {
  return principal ? { run_id: runId, principal } : { run_id: runId };
}
