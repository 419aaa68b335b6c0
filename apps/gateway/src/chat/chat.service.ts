import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Bus } from '@app/bus';
import {
  type AgentRunReply,
  type AgentRunRequest,
  type ChatRequest,
  type Scope,
  Subjects,
} from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { UsageLimits } from '../auth/usage-limits.service';
import { relayRun } from './sse-relay';

export interface Caller {
  principal: string;
  keyId: string;
  /** The key's scopes: they bound what the run's function calls may do for it. */
  scopes: Scope[];
}

/** Past the run's own deadline, how long the gateway still waits for the executor's answer. */
export const REPLY_GRACE_MS = 5_000;

/** A chat turn: one `agent.run` request, answered as JSON or relayed as SSE. */
@Injectable()
export class ChatService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
  ) {}

  chat(request: ChatRequest, caller: Caller): Promise<AgentRunReply> {
    return this.run(caller, { ...this.toRun(request, caller), stream: false });
  }

  /** The run id is chosen here so the gateway can listen for the run's events before it starts. */
  stream(request: ChatRequest, caller: Caller, res: Response): Promise<void> {
    const runId = `run_${randomUUID().replaceAll('-', '')}`;
    return relayRun(this.bus, res, runId, () =>
      this.run(caller, { ...this.toRun(request, caller), run_id: runId, stream: true }),
    );
  }

  private run(caller: Caller, request: AgentRunRequest): Promise<AgentRunReply> {
    return this.limits.withinLimits(caller.keyId, () =>
      this.bus.request<AgentRunReply>(Subjects.agentRun, request, {
        timeoutMs: this.config.executor.run_timeout + REPLY_GRACE_MS,
      }),
    );
  }

  /** Sessions and runs belong to the calling key's principal ('' with authentication off). */
  private toRun({ message, session_id, agent }: ChatRequest, { principal, scopes }: Caller): AgentRunRequest {
    return {
      message,
      ...(session_id ? { session_id } : {}),
      ...(agent ? { agent } : {}),
      ...(principal ? { principal } : {}),
      scopes,
    };
  }
}
