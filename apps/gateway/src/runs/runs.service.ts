import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Bus } from '@app/bus';
import { type AgentRunReply, type RunRefRequest, type RunView, Subjects } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { REPLY_GRACE_MS } from '../chat/chat.service';
import { relayRun } from '../chat/sse-relay';

const QUERY_TIMEOUT_MS = 5_000;
/** A cancel waits for the owning executor to wind the run down. */
const CANCEL_TIMEOUT_MS = 20_000;

/** A run's trace, and the verbs on a run: cancel, approve (which runs the plan), reject. */
@Injectable()
export class RunsService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  get(runId: string, principal: string): Promise<RunView> {
    return this.ask<RunView>(Subjects.agentRunGet, runId, principal, QUERY_TIMEOUT_MS);
  }

  cancel(runId: string, principal: string): Promise<AgentRunReply> {
    return this.ask(Subjects.agentRunCancel, runId, principal, CANCEL_TIMEOUT_MS);
  }

  reject(runId: string, principal: string): Promise<AgentRunReply> {
    return this.ask(Subjects.agentRunReject, runId, principal, QUERY_TIMEOUT_MS);
  }

  approve(runId: string, principal: string): Promise<AgentRunReply> {
    return this.approveRequest(runId, principal, false);
  }

  approveStreaming(runId: string, principal: string, res: Response): Promise<void> {
    return relayRun(this.bus, res, runId, () => this.approveRequest(runId, principal, true));
  }

  private approveRequest(runId: string, principal: string, stream: boolean): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + REPLY_GRACE_MS;
    return this.bus.request<AgentRunReply>(
      Subjects.agentRunApprove,
      { ...ref(runId, principal), stream },
      { timeoutMs },
    );
  }

  private ask<T>(subject: string, runId: string, principal: string, timeoutMs: number): Promise<T> {
    return this.bus.request<T>(subject, ref(runId, principal), { timeoutMs });
  }
}

function ref(runId: string, principal: string): RunRefRequest {
  return principal ? { run_id: runId, principal } : { run_id: runId };
}
