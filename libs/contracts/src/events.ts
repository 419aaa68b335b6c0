import type { AgentEvent } from './agent';
import type { RunResumedEvent } from './run-events';
import type { FunctionCallBatch } from './function-calls';
import type { FnAnnounce, FnCancel } from './functions';
import { Subjects } from './subjects';

declare const payloadType: unique symbol;

/**
 * One publish/subscribe subject with the payload that travels on it, as a route pairs a request
 * subject with its request and reply: `bus.publish(event, payload)` and `bus.subscribe(event,
 * handler)` are typed by it. Payloads are not parsed: only the platform's own services publish.
 */
export interface BusEvent<T> {
  readonly subject: string;
  /** The payload's type, for the compiler only. */
  readonly [payloadType]?: T;
}

export function busEvent<T>(subject: string): BusEvent<T> {
  return { subject };
}

/** Every event subject of the platform, with its payload. */
export const Events = {
  /** A run's events, in order: the executor publishes, the gateway relaying the run's stream listens. */
  agentEvents: (runId: string) => busEvent<AgentEvent>(Subjects.agentEvents(runId)),
  agentRunResumed: busEvent<RunResumedEvent>(Subjects.agentRunResumed),
  /** A profile made over the API was created, replaced or deleted: executors drop their cached copy. */
  agentProfileChanged: busEvent<{ name: string }>(Subjects.agentProfileChanged),
  fnAnnounce: busEvent<FnAnnounce>(Subjects.fnAnnounce),
  fnCancel: busEvent<FnCancel>(Subjects.fnCancel),
  /** The recorders' request subject, heard by an observer (a test) outside their queue group. */
  fnCallsRecorded: busEvent<FunctionCallBatch>(Subjects.fnCallsRecord),
} as const;
