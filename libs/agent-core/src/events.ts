import type { AgentEventData, AgentEventType } from '@app/contracts';

/**
 * One event of a run, typed by its `type`: the events `agent.events.<runId>` carries and the chat
 * API streams (libs/contracts agent-runs.ts), numbered in order by `seq`.
 */
export type RunEvent = {
  [T in AgentEventType]: { type: T; run_id: string; seq: number; data: AgentEventData[T] };
}[AgentEventType];
