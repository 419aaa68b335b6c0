import { Injectable } from '@nestjs/common';
import { type AgentRunReply, ConflictError, type RoutingDecision, UnavailableError } from '@app/contracts';
import type { RunState } from '@app/agent-core';
import { routingStep } from './routing-step';

interface InFlight {
  run: RunState;
  ended: Promise<AgentRunReply>;
}

/**
 * The runs this executor holds, from before their record is written until they are answered: its
 * one interrupt and one inbox subscription (`RunMailHandler`, addressed by the lease owner a run's
 * record holds) hand each request to its run here. A run no longer here is answered `unavailable`
 * at once, as nobody answering its own subject was before.
 */
@Injectable()
export class RunsInFlight {
  private readonly runs = new Map<string, InFlight>();

  /** Holds `run` until `ended` settles. */
  add(run: RunState, ended: Promise<AgentRunReply>): void {
    const entry = { run, ended };
    this.runs.set(run.runId, entry);
    const forget = () => {
      if (this.runs.get(run.runId) === entry) this.runs.delete(run.runId);
    };
    void ended.then(forget, forget);
  }

  /** Aborts the run; answered with its ending. */
  interrupt(runId: string): Promise<AgentRunReply> {
    const { run, ended } = this.held(runId);
    run.abort('cancelled');
    return ended;
  }

  /**
   * Puts a message in the run's inbox, read before its next model step; a routed one is traced.
   * A run on its last step, or ending, reads no more: the message is refused (409), not dropped.
   */
  post(runId: string, message: string, decision?: RoutingDecision): { accepted: true } {
    const { run } = this.held(runId);
    if (!run.inbox.post(message))
      throw new ConflictError(
        `run '${runId}' is on its last step or ending, and reads no more messages; send it again with session_id '${run.identity.sessionId}' and no run_id to start a new turn`,
        { run_id: runId, session_id: run.identity.sessionId },
      );
    if (decision) run.addTrace(routingStep(run.step, message, decision));
    return { accepted: true };
  }

  private held(runId: string): InFlight {
    const found = this.runs.get(runId);
    if (!found) throw new UnavailableError(`run '${runId}' is not in flight at this agent-executor`);
    return found;
  }
}
