import type { ChatRequest, RoutingDecision, RunPlanRequest } from '@app/contracts';

/** A chat message routed to a new run: what an ended run it follows up did, and why it is a run of its own. */
export type RoutedChat = Omit<ChatRequest, 'run_id' | 'routing'> & {
  instructions?: string;
  routing_decision?: RoutingDecision;
};

/** What a turn may be asked with: a chat message, or the caller's own plan (`POST /api/v1/runs`). */
export type TurnRequest = RoutedChat | RunPlanRequest;
