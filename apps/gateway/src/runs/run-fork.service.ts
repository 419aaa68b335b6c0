import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type AgentRunReply,
  type ForkRunBody,
  type RunForkRequest,
  Routes,
  type RunView,
  type Usage,
} from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { UsageLimits } from '@app/limits';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type Caller, EXECUTOR_REPLY_GRACE_MS, failedRun, newRunId } from '../chat/chat.service';
import { followFork } from '../chat/run-follower';
import { RunTakeovers } from '../chat/run-takeovers';
import { type RunEvents, runEvents } from '../chat/run-events';
import { RunEventLog } from '../chat/run-event-log';
import { usageAdded } from '../chat/usage-added';

/**
 * A fork is a turn like a chat message: it takes a run slot of the calling key and counts against
 * its day, it is followed by its new run's id (a lost bus connection or executor does not lose its
 * answer), and it answers with the new run's reply or as its events.
 */
@Injectable()
export class RunForkService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
    @Inject(RunTakeovers) private readonly takeovers: RunTakeovers,
    @Inject(RunEventLog) private readonly events: RunEventLog,
  ) {}

  async fork(
    fromRun: string,
    body: ForkRunBody,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<AgentRunReply> {
    const reply = await this.run(this.request(fromRun, body, caller, false), caller, signal);
    if (reply.error) throw failedRun(reply, reply.error);
    return reply;
  }

  /** `fork`, as the new run's events. */
  forkStream(fromRun: string, body: ForkRunBody, caller: Caller, signal?: AbortSignal): RunEvents {
    const request = this.request(fromRun, body, caller, true);
    return runEvents(this.events, request.run_id, () => this.run(request, caller, signal));
  }

  /**
   * The fork's reply counts the steps it took from the journal too; only what it spent live is
   * charged: its usage less the usage of the forked run's steps before `from_step`.
   */
  private async run(request: RunForkRequest, caller: Caller, signal?: AbortSignal): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + EXECUTOR_REPLY_GRACE_MS;
    const source = await this.bus.request(Routes.agentRunGet, {
      run_id: request.from_run,
      ...(request.principal ? { principal: request.principal } : {}),
    });
    const before = usageBefore(source, request.from_step);
    const { reply } = await this.limits.withinLimits(
      caller,
      async () => {
        const reply = await followFork(this.bus, request, { timeoutMs, takeovers: this.takeovers });
        return { reply, usage: usageAdded(reply.usage, before) };
      },
      { signal },
    );
    return reply;
  }

  private request(fromRun: string, body: ForkRunBody, caller: Caller, stream: boolean): RunForkRequest {
    return {
      ...body,
      stream,
      from_run: fromRun,
      run_id: newRunId(),
      ...(caller.principal ? { principal: caller.principal } : {}),
      key_id: caller.keyId,
      scopes: caller.scopes,
    };
  }
}

/** What the forked run's model steps before `step` spent: the fork takes them from the journal. */
function usageBefore(run: RunView, step: number): Usage {
  const spent: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (const span of run.timeline ?? []) {
    if (span.kind !== 'model' || span.step >= step || !span.usage) continue;
    spent.prompt_tokens += span.usage.prompt_tokens;
    spent.completion_tokens += span.usage.completion_tokens;
    if (span.usage.cost_usd !== undefined) spent.cost_usd = (spent.cost_usd ?? 0) + span.usage.cost_usd;
  }
  return spent;
}
