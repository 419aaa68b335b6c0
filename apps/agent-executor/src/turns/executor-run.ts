import { type EventSink, type PriorProgress, type RunIdentity, RunState } from '@app/agent-core';
import { type ClientToolSet, type Hooks, InMemoryRunInbox } from '@app/agent-core';
import type { ModelPrice } from '@app/contracts';
import type { AgentProfile } from '../agents/agent-profile';

export interface ExecutorRunIdentity extends RunIdentity {
  /** Publish step events on `agent.events.<runId>`. */
  stream: boolean;
}

/**
 * The run engine's state of a run, with what only the executor keeps: whether the caller streams,
 * the caller's tools, and where the session's history stood when it was loaded.
 */
export class ExecutorRun extends RunState<AgentProfile> {
  declare readonly identity: ExecutorRunIdentity;
  /** Tools the caller runs itself; a call to one holds the run for their results. */
  clientTools?: ClientToolSet;
  /** The profile's hooks, told of the run's events up to its end. */
  hooks?: Hooks;
  /** The session's last message as of loading its history (0 for a new session): saves a read when appending. */
  sessionLastSeq?: number;
  /** Messages the caller adds while the run runs (`agent.inbox.<executor>`, by run id). */
  readonly inbox = new InMemoryRunInbox();

  constructor(
    identity: ExecutorRunIdentity,
    profile: AgentProfile,
    options: { timeoutMs: number; events: EventSink; prior?: PriorProgress; price?: ModelPrice },
  ) {
    super(identity, profile, {
      timeoutMs: options.timeoutMs,
      events: identity.stream ? options.events : undefined,
      prior: options.prior,
      price: options.price,
    });
  }

  get profile(): AgentProfile {
    return this.definition;
  }
}
