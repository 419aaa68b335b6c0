import type { AgentEventData, AgentEventType } from '@app/contracts';

/**
 * One event of a run, typed by its `type`: the events `agent.events.<runId>` carries and the chat
 * API streams (libs/contracts agent-runs.ts), numbered in order by `seq`.
 */
export type RunEvent = {
  [T in AgentEventType]: { type: T; run_id: string; seq: number; data: AgentEventData[T] };
}[AgentEventType];

/** The time a run reads: the host's clock, or a test's. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Receives a run's events, numbered in order: the events the chat API streams. */
export interface EventSink {
  emit(event: RunEvent): void;
}
