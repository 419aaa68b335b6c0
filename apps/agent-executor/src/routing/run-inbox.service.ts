import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { type AgentRunReply, type RoutingDecision, Routes } from '@app/contracts';
import type { ExecutorRun } from '../engine/executor-run';

/**
 * The executor holding a run in flight answers `agent.inbox.<runId>` (no queue group: only it
 * listens) by putting the message in the run's inbox, which the run reads before its next model
 * step. A routed message's decision is traced as it arrives.
 */
@Injectable()
export class RunInboxService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  /** Listens for messages to `run` until `ended` settles. */
  listen(run: ExecutorRun, ended: Promise<AgentRunReply>): void {
    const subscription = this.bus.serve(Routes.agentRunInbox(run.runId), ({ message, decision }) => {
      if (decision) run.addTrace(routingStep(run.step, message, decision));
      run.inbox.post(message);
      return Promise.resolve({ accepted: true as const });
    });
    const stop = () => subscription.unsubscribe();
    void ended.then(stop, stop);
  }
}

/** Where a message without a run id went, and why: the first step of the run it went to. */
export function routingStep(step: number, message: string, decision: RoutingDecision) {
  return { step, kind: 'routing' as const, message, routing: decision, elapsed_ms: 0 };
}
