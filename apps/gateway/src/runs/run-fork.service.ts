import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { AgentRunReply, ForkRunBody, RunForkRequest } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { UsageLimits } from '@app/limits';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type Caller, EXECUTOR_REPLY_GRACE_MS, failedRun, newRunId } from '../chat/chat.service';
import { followFork } from '../chat/run-follower';
import { RunTakeovers } from '../chat/run-takeovers';
import { type RunEvents, runEvents } from '../chat/run-events';

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
    return runEvents(this.bus, request.run_id, () => this.run(request, caller, signal));
  }

  private run(request: RunForkRequest, caller: Caller, signal?: AbortSignal): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + EXECUTOR_REPLY_GRACE_MS;
    return this.limits.withinLimits(
      caller,
      () => followFork(this.bus, request, { timeoutMs, takeovers: this.takeovers }),
      { signal },
    );
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
