import type { HistoryLoader, PriorProgress, ResumeOptions, RunIdentity, RunState } from '@app/agent-core';
import type { ClientTool } from '@app/contracts';
import { type AgentProfile, withInstructions } from '../agents/agent-profile';
import type { RunRecord } from '../store/run.repository';
import type { SessionRecord } from '../store/session.repository';
import { boundedBy } from './run-lineage';

export interface HostIdentity extends RunIdentity {
  /** Publish the run's events on `agent.events.<runId>`. */
  stream: boolean;
}

/** A turn as the run host runs it, whichever way it came: started, resumed, or carried on. */
export interface HostedTurn {
  identity: HostIdentity;
  /** The agent as this turn runs it (the caller's instructions and bounds applied). */
  profile: AgentProfile;
  /** What the turn answers: the run's input, kept as the session's user message. */
  message: string;
  /** The session whose history the turn reads; none for a run without one (or whose session is gone). */
  session: SessionRecord | null;
  /** The session was opened by this turn without earlier messages: nothing to read, its last message is 0. */
  fresh?: boolean;
  /** What the turn reads before its message when it is not the session's (a fork reads its source run's). */
  history?: HistoryLoader;
  clientTools?: ClientTool[];
  /** A plan held for approval, approved. */
  prior?: PriorProgress;
  /** A run carried on from its journal. */
  resume?: ResumeOptions;
  /** Sets the run up before it starts (a caller's plan, the routing decision in its trace). */
  prepare?: (run: RunState<AgentProfile>) => void;
  /** Once the run can be cancelled, before its work: its record written, its lease taken, its resumption told. */
  register: (run: RunState<AgentProfile>) => Promise<void>;
}

/**
 * Who a stored run runs for, as its first turn did: its caller, the API key and scopes it was
 * done for, the agents above it. Every way a stored run goes on (taken over, a held call decided,
 * its plan approved) reads it here.
 */
export function identityOf(record: RunRecord, stream: boolean): HostIdentity {
  const { key_id: keyId, scopes, lineage } = record.turn_options;
  return {
    runId: record.id,
    sessionId: record.session_id ?? '',
    principal: record.owner || undefined,
    ...(keyId ? { keyId } : {}),
    scopes,
    stream,
    ...(lineage ? { chain: lineage.chain } : {}),
  };
}

/**
 * The agent as a stored run runs it: with the caller's instructions; a run whose plan was approved
 * is not held again (running from the top must not hold it twice); a child run keeps its
 * caller's bounds (its deadline is absolute).
 */
export function profileOf(record: RunRecord, profile: AgentProfile): AgentProfile {
  const { instructions, approved, lineage } = record.turn_options;
  const own = withInstructions(approved ? { ...profile, plan_approval: false } : profile, instructions);
  return lineage ? boundedBy(own, lineage) : own;
}
